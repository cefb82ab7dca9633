//===- EntryStub.cpp - Vortex kernel entry stubs --------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Vortex v3.0 runs a lane's start-up code (stack pointer, thread pointer,
// global pointer, TLS) only the first time its warp is dispatched for a
// kernel: a warp reused for the next CTA re-enters 20 bytes before the end
// of __vx_cta_entry and calls the kernel entry directly (sim/simx
// scheduler.cpp activate_warp; cta_dispatcher.cpp keeps one "initialised"
// flag per warp, not per lane). A warp first dispatched for a partial last
// warp of a CTA (blockDim not a multiple of the warp size) leaves its other
// lanes uninitialised; when the warp is reused for a full warp those lanes
// run with sp = 0, share one stack and corrupt each other's frames (wrong
// results as soon as code touches the stack: -O0, spills, local arrays).
//
// So every kernel entry goes through a stub. A full warp (the common case)
// costs a thread-mask read, a compare and two jumps. A partial warp turns
// on every lane of the warp (vx_tmc) and gives each lane what the start-up
// code would, from its hart id, as sw/kernel/src/vx_start.S does: sp =
// STACK_BASE - (hartid << STACK_LOG2_SIZE), tp = _end + hartid *
// __tls_block_size (and __init_tls when there is TLS), gp =
// __global_pointer; then it restores the mask (broadcast from lane 0, which
// a CTA's warp always has) and calls the entry. Every lane is thus
// initialised before its warp can run it in a later CTA. The mask is read
// with a ballot, as everywhere else (VortexISA.cpp emitThreadMask).
//
// Vortex keeps a warp's "initialised" flag across the launches of one
// image, so lanes can only be left uninitialised by a launch whose blocks
// end in a partial warp. The HIP runtime therefore enters launches whose
// block size is a multiple of the warp size through a second symbol,
// `__vx_kentry_<name>.fullwarps`, the entry itself: no per-CTA cost there.
//
//===----------------------------------------------------------------------===//

#include "EntryStub.h"

#include "crosslane/Vortex/VortexISA.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

// Defaults: Vortex v3.0's VX_types.h (VX_MEM_STACK_BASE_ADDR for XLEN 32,
// VX_MEM_STACK_LOG2_SIZE); crosslane-hipcc passes the configuration's.
static cl::opt<uint64_t> StackBase(
    "crosslane-vortex-stack-base",
    cl::desc("Top of hart 0's stack on Vortex (VX_MEM_STACK_BASE_ADDR)"),
    cl::init(0xFFFF0000));
static cl::opt<unsigned> StackLog2Size(
    "crosslane-vortex-stack-log2-size",
    cl::desc("log2 of a Vortex hart's stack size (VX_MEM_STACK_LOG2_SIZE)"),
    cl::init(13));

namespace crosslane {
namespace vortex {

static constexpr const char *SetupName = "__crosslane_vx_lane_setup";

/// The shared slow path, entered with the entry's address in t1, the
/// thread mask in t0 and the full-warp mask in t3 (in the active lanes).
static std::string setupRoutine() {
  std::string S;
  raw_string_ostream OS(S);
  OS << "\t.section\t.text." << SetupName << ",\"axR\",@progbits\n"
     << "\t.weak\t" << SetupName << "\n"
     << "\t.type\t" << SetupName << ",@function\n"
     << "\t.p2align\t2\n"
     << SetupName << ":\n";
  // Every lane; t0 = lane 0's mask (shuffle operand 0x7c0: lane 0).
  OS << '\t' << insnAsm(insn("vx_tmc"), "x0", "t3", "x0") << '\n'
     << "\tli\tt2, 0x7c0\n"
     << '\t' << insnAsm(insn("vx_shfl_idx"), "t0", "t0", "t2") << '\n'
     << "\tcsrr\tt2, 0x" << utohexstr(CSRHartId, true) << '\n'
     << "\tli\tt4, " << format("0x%llx", (unsigned long long)StackBase) << "\n"
     << "\tslli\tt5, t2, " << StackLog2Size << "\n"
     << "\tsub\tsp, t4, t5\n"
     << "\tlui\tt5, %hi(__tls_block_size)\n"
     << "\taddi\tt5, t5, %lo(__tls_block_size)\n"
     << "\tmul\tt2, t2, t5\n"
     << "\tlui\ttp, %hi(_end)\n"
     << "\taddi\ttp, tp, %lo(_end)\n"
     << "\tadd\ttp, tp, t2\n"
     << "\t.option\tpush\n\t.option\tnorelax\n"
     << "\tlui\tgp, %hi(__global_pointer)\n"
     << "\taddi\tgp, gp, %lo(__global_pointer)\n"
     << "\t.option\tpop\n"
     << "\tbeqz\tt5, 1f\n" // no TLS (the same in every lane)
     << "\taddi\tsp, sp, -16\n"
     << "\tsw\tra, 12(sp)\n"
     << "\tsw\ta0, 8(sp)\n"
     << "\tsw\tt1, 4(sp)\n"
     << "\tsw\tt0, 0(sp)\n"
     << "\tcall\t__init_tls\n"
     << "\tlw\tt0, 0(sp)\n"
     << "\tlw\tt1, 4(sp)\n"
     << "\tlw\ta0, 8(sp)\n"
     << "\tlw\tra, 12(sp)\n"
     << "\taddi\tsp, sp, 16\n"
     << "1:\n";
  // Only the CTA's lanes.
  OS << '\t' << insnAsm(insn("vx_tmc"), "x0", "t0", "x0") << '\n'
     << "\tjr\tt1\n"
     << "\t.size\t" << SetupName << ", .-" << SetupName << "\n";
  return S;
}

void emitKernelEntryStub(Module &M, StringRef KEntry, StringRef Entry,
                         unsigned WarpSize) {
  std::string S;
  raw_string_ostream OS(S);
  if (!StringRef(M.getModuleInlineAsm()).contains(SetupName))
    OS << setupRoutine();
  // "R" (SHF_GNU_RETAIN): --gc-sections keeps the stub, which only the
  // .vxbin symbol table refers to.
  OS << "\t.section\t.text." << KEntry << ",\"axR\",@progbits\n"
     << "\t.globl\t" << KEntry << "\n"
     << "\t.type\t" << KEntry << ",@function\n"
     << "\t.p2align\t2\n"
     << KEntry << ":\n";
  // t0 = the thread mask (a ballot of 1).
  OS << "\tli\tt0, 1\n"
     << '\t' << insnAsm(insn("vx_vote_ballot"), "t0", "t0", "x0") << '\n';
  if (WarpSize >= 32)
    OS << "\tli\tt3, -1\n";
  else if (WarpSize)
    OS << "\tli\tt3, " << ((1u << WarpSize) - 1) << "\n";
  else // from the lanes per warp: -1 >> (32 - N)
    OS << "\tcsrr\tt3, 0x" << utohexstr(CSRNumThreads, true) << '\n'
       << "\tneg\tt3, t3\n"
       << "\tli\tt2, -1\n"
       << "\tsrl\tt3, t2, t3\n";
  OS << "\tbne\tt0, t3, 1f\n"
     << "\tj\t" << Entry << "\n"
     << "1:\n"
     << "\tlui\tt1, %hi(" << Entry << ")\n"
     << "\taddi\tt1, t1, %lo(" << Entry << ")\n"
     << "\tj\t" << SetupName << "\n"
     << "\t.size\t" << KEntry << ", .-" << KEntry << "\n"
     << "\t.text\n";
  M.appendModuleInlineAsm(S);
}

} // namespace vortex
} // namespace crosslane
