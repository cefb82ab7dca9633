/* Crosslane, Vortex device compiles: the device side of a HIP compile for
   rv32 parses the host's glibc headers with __x86_64__ (the aux target's
   macros) and __ILP32__ (rv32's data model) defined, which glibc reads as
   the x32 ABI. x32's data model (32-bit long and pointers, 64-bit long
   long) is rv32's; Debian ships no x32 stubs file, and no stubs are
   needed: device code calls no glibc function. */
