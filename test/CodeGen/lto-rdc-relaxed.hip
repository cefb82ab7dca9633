// -fgpu-rdc runs the device pipeline twice: per file at compile time (the
// reduction is expanded there) and again in ld.lld's LTO. The second run
// must not read Crosslane's own DPP moves as a hand-written butterfly (it
// used to wrap the expansion in a second, guarded one: 12 v_max_f32_dpp),
// and the code generator inside lld runs Crosslane's code-generation
// passes: one fused chain of 6, no NaN guard.
// REQUIRES: hip-headers
// RUN: %hipcc --offload-arch=gfx942 --cuda-device-only -fgpu-rdc -O2 -c -I %crosslane_src/include %S/Inputs/reduce-max.hip -o %t.bc
// RUN: ld.lld -m elf64_amdgpu -shared --load-pass-plugin=%plugin -plugin-opt=mcpu=gfx942 -mllvm -pass-remarks=crosslane -mllvm -pass-remarks-missed=crosslane-recognize-arg %t.bc -o %t.out 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: llvm-objdump -d --mcpu=gfx942 %t.out | FileCheck %s
// REMARK-NOT: recognised
// REMARK: fmin/fmax reduction reduces NaNs with llvm.maxnum/minnum itself (guard removed; 6 steps)
// REMARK-NOT: recognised
// CHECK-LABEL: <_Z8wave_maxPf>:
// CHECK-NOT: v_cmp_o_f32
// CHECK-COUNT-6: v_max_f32_dpp
// CHECK-NOT: v_max_f32_dpp
// CHECK-NOT: v_cmp_o_f32
// CHECK: s_endpgm
