; A Crosslane pass given a parameter it does not take: one "error:" line
; naming the pass, the parameter and what it accepts; opt exits 1.
; RUN: not opt %loadcrosslane -passes='crosslane-recognize-arg-phase<bogus>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PHASE
; PHASE: error: invalid crosslane-recognize-arg-phase parameter 'bogus' (expected one of struct-copies, vector-state, half-exchanges, ladder-loops, high-words, lane-atomics)
; RUN: not opt %loadcrosslane -passes='crosslane-xe-form-blocks<chip=xe9>' -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FORM
; FORM: error: invalid crosslane-xe-form-blocks parameter 'xe9' (expected chip=NAME with NAME one of bmg, cri, dg2, lnl, ptl, pvc)

define void @f() {
  ret void
}
