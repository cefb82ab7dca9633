// A "no element" index (0) with unsigned index ties: `OI != 0 && (I == 0 ||
// OV > V || (OV == V && OI < I))` on unsigned indices. Sentinel candidates
// were made for signed index orders only, so this chain was proven only on
// tie-free inputs ("ties: by lane order"). The "no element" pair must be
// encoded in the operation's order, after the unsigned flip: encoded before
// it, the largest index becomes -1 and an empty lane wins a tie with an
// element of the worst value whose index is >= 2^31 (the adversarial input
// below: every value INT_MIN, every index above 2^31).
// REQUIRES: executor
// RUN: rm -rf %t && mkdir -p %t
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only --no-crosslane -nogpulib -O2 -S -emit-llvm %s -o %t/g9.ll
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -pass-remarks=crosslane-recognize-arg -pass-remarks-missed=crosslane-recognize-arg -S %t/g9.ll -o %t/g9.x.ll 2>&1 | FileCheck %s --check-prefix=G9
// G9: recognised argmax i32/i32, ties: smallest index (unsigned), index 0 = no element over 64 lanes (xor butterfly, 6 stages on gfx942 wave64)
// G9-NOT: not replaced
// RUN: opt %loadcrosslane -passes='crosslane-recognize-arg,crosslane-expand-subgroup,verify' -crosslane-fallback-trap -S %t/g9.ll -o %t/g9.trap.ll
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.trap.ll --mcpu=gfx942 --block=64 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %crosslane-run %t/g9.ll --diff=%t/g9.x.ll --mcpu=gfx942 --block=N --sizes=5,40 --print=none --arg=buf:i32:64:input --arg=buf:i32:64:random --arg=buf:i32:64:zero --inputs=all --cases=6 | FileCheck %s --check-prefix=DIFF
// RUN: %python -c "import struct; open('%t/x.bin','wb').write(struct.pack('<64i', *[-2**31]*64)); open('%t/ix.bin','wb').write(struct.pack('<64I', *[2**31 + 1 + 3*i for i in range(64)]))"
// RUN: %crosslane-run %t/g9.ll --mcpu=gfx942 --block=64 --print=2 --arg=buf:i32:64:file=%t/x.bin --arg=buf:i32:64:file=%t/ix.bin --arg=buf:i32:64:zero > %t/orig.txt
// RUN: %crosslane-run %t/g9.trap.ll --mcpu=gfx942 --block=64 --print=2 --arg=buf:i32:64:file=%t/x.bin --arg=buf:i32:64:file=%t/ix.bin --arg=buf:i32:64:zero > %t/fast.txt
// RUN: diff %t/orig.txt %t/fast.txt
// DIFF: diff: {{[1-9][0-9]*}} cases, 0 mismatches

#include <hip/hip_runtime.h>

extern "C" __global__ void uidx_sentinel(const int *X, const unsigned *Ix,
                                         unsigned *Out) {
  int V = X[threadIdx.x];
  unsigned I = Ix[threadIdx.x] % 4 == 0 ? 0u : Ix[threadIdx.x];
  for (int M = 1; M < warpSize; M <<= 1) {
    int OV = __shfl_xor(V, M);
    unsigned OI = __shfl_xor(I, M);
    if (OI != 0 && (I == 0 || OV > V || (OV == V && OI < I))) {
      V = OV;
      I = OI;
    }
  }
  Out[threadIdx.x] = I;
}
