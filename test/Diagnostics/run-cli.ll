; crosslane-run's command line: every option or argument spec it cannot use
; is one "crosslane-run: error:" line that quotes the offending text and
; says what is wanted; exit code 1.
; REQUIRES: executor

; Which kernel, which chip:
; RUN: not %crosslane-run %s --mcpu=gfx942 2>&1 | FileCheck %s --check-prefix=SEVERAL
; SEVERAL: crosslane-run: error: '{{.*}}run-cli.ll' has several kernels: choose one with --kernel
; RUN: not %crosslane-run %S/Inputs/spir-two-kernels.ll 2>&1 | FileCheck %s --check-prefix=SEVERALXE
; SEVERALXE: crosslane-run: error: '{{.*}}spir-two-kernels.ll' has several kernels: choose one with --kernel
; RUN: not %crosslane-run %S/Inputs/spir-two-kernels.ll --kernel=z 2>&1 | FileCheck %s --check-prefix=NOSPIR
; NOSPIR: crosslane-run: error: no spir_kernel 'z' in '{{.*}}spir-two-kernels.ll'
; RUN: printf 'define void @f() {\n  ret void\n}\n' > %t.nokernel.ll
; RUN: not %crosslane-run %t.nokernel.ll 2>&1 | FileCheck %s --check-prefix=NOKERNEL
; NOKERNEL: crosslane-run: error: no amdgpu_kernel in '{{.*}}.nokernel.ll' (use --kernel)
; RUN: not %crosslane-run %s --kernel=a --arg=null 2>&1 | FileCheck %s --check-prefix=NOCHIP
; NOCHIP: crosslane-run: error: no chip: give --mcpu (the kernel has no "target-cpu")
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --target=cuda --arg=null 2>&1 | FileCheck %s --check-prefix=TARGET
; TARGET: crosslane-run: error: bad --target 'cuda' (amdgpu, vortex, xe or auto)
; RUN: not %crosslane-run %s --target=vortex --kernel=a --vortex-semantics=hardware,structured --arg=null 2>&1 | FileCheck %s --check-prefix=SEMANTICS
; SEMANTICS: crosslane-run: error: --vortex-semantics takes one value, not 'hardware,structured'

; Argument specs:
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=local:1:2 2>&1 | FileCheck %s --check-prefix=LOCAL
; LOCAL: crosslane-run: error: bad local-memory spec 'local:1:2' (want local:BYTES)
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4 2>&1 | FileCheck %s --check-prefix=BUF
; BUF: crosslane-run: error: bad buffer spec 'buf:i32:4' (want buf:TYPE:COUNT:INIT)
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=i32 2>&1 | FileCheck %s --check-prefix=SPEC
; SPEC: crosslane-run: error: bad argument spec 'i32' (want buf:TYPE:COUNT:INIT, TYPE:VALUE, local:BYTES or null)
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=local:0 2>&1 | FileCheck %s --check-prefix=BYTES
; BYTES: crosslane-run: error: bad byte count in 'local:0'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=f32:abc 2>&1 | FileCheck %s --check-prefix=SCALAR
; SCALAR: crosslane-run: error: bad scalar 'f32:abc'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:x:zero 2>&1 | FileCheck %s --check-prefix=ELEMS
; ELEMS: crosslane-run: error: bad element count in 'buf:i32:x:zero'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:const=abc 2>&1 | FileCheck %s --check-prefix=CONST
; CONST: crosslane-run: error: bad constant in 'buf:i32:4:const=abc'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:file=%t.missing 2>&1 | FileCheck %s --check-prefix=READ
; READ: crosslane-run: error: cannot read '{{.*}}.missing'
; RUN: printf 'ab' > %t.two-bytes
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:file=%t.two-bytes 2>&1 | FileCheck %s --check-prefix=SHORT
; SHORT: crosslane-run: error: file '{{.*}}.two-bytes' holds 2 bytes, need 16

; Generators:
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:random --int-range=5:1 2>&1 | FileCheck %s --check-prefix=RANGE
; RANGE: crosslane-run: error: bad --int-range '5:1' (want LO:HI)
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:gen=nan-at=x 2>&1 | FileCheck %s --check-prefix=GEN
; GEN: crosslane-run: error: bad generator 'nan-at=x'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:gen=bogus 2>&1 | FileCheck %s --check-prefix=UNKGEN
; UNKGEN: crosslane-run: error: unknown generator 'bogus'

; Launch shape, sizes, printing and output:
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --grid=1,1,1,1 --arg=null 2>&1 | FileCheck %s --check-prefix=GRID
; GRID: crosslane-run: error: --grid takes at most 3 dimensions
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:zero --sizes=x 2>&1 | FileCheck %s --check-prefix=SIZES
; SIZES: crosslane-run: error: bad --sizes 'x'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:zero --diff=%s --sizes=x 2>&1 | FileCheck %s --check-prefix=DIFFSIZES
; DIFFSIZES: crosslane-run: error: bad --sizes entry 'x'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:zero --print=5 2>&1 | FileCheck %s --check-prefix=PRINT
; PRINT: crosslane-run: error: bad --print entry '5'
; RUN: not %crosslane-run %s --kernel=a --mcpu=gfx942 --arg=buf:i32:4:zero --out=%t.missing/o 2>&1 | FileCheck %s --check-prefix=OUT
; OUT: crosslane-run: error: cannot write '{{.*}}.missing/o': {{.*}}

define amdgpu_kernel void @a(ptr addrspace(1) %out) {
  ret void
}

define amdgpu_kernel void @b(ptr addrspace(1) %out) {
  ret void
}
