; Per-chip facts Crosslane derives from target-cpu/target-features, asked of
; LLVM's AMDGPU subtarget (research/amdgpu-dpp.md §2).
; RUN: opt -load-pass-plugin=%plugin -passes='print<crosslane-target>' -disable-output %s | FileCheck %s

target triple = "amdgcn-amd-amdhsa"

; CHECK: crosslane-target: f900: gfx900 (9.0.0) wave64 dpp row_bcast{{$}}
define void @f900() #0 { ret void }
; CHECK: crosslane-target: f90a: gfx90a (9.0.10) wave64 dpp row_bcast row_newbcast dpp64{{$}}
define void @f90a() #1 { ret void }
; CHECK: crosslane-target: f942: gfx942 (9.4.2) wave64 dpp row_bcast row_newbcast dpp64{{$}}
define void @f942() #2 { ret void }
; CHECK: crosslane-target: f950: gfx950 (9.5.0) wave64 dpp row_bcast row_newbcast dpp64 permlane16.swap permlane32.swap{{$}}
define void @f950() #3 { ret void }
; CHECK: crosslane-target: f1030: gfx1030 (10.3.0) wave32 dpp dpp8 row_xmask permlanex16{{$}}
define void @f1030() #4 { ret void }
; CHECK: crosslane-target: f1030w64: gfx1030 (10.3.0) wave64 dpp dpp8 row_xmask permlanex16 bpermute-within-half{{$}}
define void @f1030w64() #5 { ret void }
; CHECK: crosslane-target: f1100: gfx1100 (11.0.0) wave32 dpp dpp8 row_xmask permlanex16 permlane64 vop3-dpp quirk:dpp-combine-sub32-imm{{$}}
define void @f1100() #6 { ret void }
; CHECK: crosslane-target: f1100w64: gfx1100 (11.0.0) wave64 {{.*}}permlane64{{.*}}bpermute-within-half
define void @f1100w64() #7 { ret void }
; CHECK: crosslane-target: f1201: gfx1201 (12.0.1) wave32 dpp dpp8 row_xmask permlanex16 permlane64 ieee-minmax vop3-dpp{{$}}
define void @f1201() #8 { ret void }
; CHECK: crosslane-target: nocpu: not an AMDGPU function with a known target-cpu
define void @nocpu() { ret void }

attributes #0 = { "target-cpu"="gfx900" }
attributes #1 = { "target-cpu"="gfx90a" }
attributes #2 = { "target-cpu"="gfx942" }
attributes #3 = { "target-cpu"="gfx950" }
attributes #4 = { "target-cpu"="gfx1030" }
attributes #5 = { "target-cpu"="gfx1030" "target-features"="+wavefrontsize64" }
attributes #6 = { "target-cpu"="gfx1100" }
attributes #7 = { "target-cpu"="gfx1100" "target-features"="+wavefrontsize64" }
attributes #8 = { "target-cpu"="gfx1201" }
