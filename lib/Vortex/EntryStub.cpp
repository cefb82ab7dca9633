//===- EntryStub.cpp - Vortex kernel entry stubs --------------------------===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Vortex v3.0 runs a lane's start-up code (stack pointer, thread pointer,
// TLS) only the first time its warp is dispatched for a kernel: a warp
// reused for the next CTA re-enters 20 bytes before the end of
// __vx_cta_entry and calls the kernel entry directly (sim/simx
// scheduler.cpp activate_warp; cta_dispatcher.cpp keeps one "initialised"
// flag per warp, not per lane). A warp first dispatched for a partial last
// warp of a CTA (blockDim not a multiple of the warp size) leaves its other
// lanes uninitialised; when the warp is reused for a full warp those lanes
// run with sp = 0 and tp = 0, share one stack, and corrupt each other's
// frames (wrong results as soon as code touches the stack: -O0, spills,
// local arrays, printf).
//
// The stub every kernel entry goes through recomputes what the start-up
// code sets, from the lane's hart id, exactly as sw/kernel/src/vx_start.S
// does: sp = STACK_BASE - (hartid << STACK_LOG2_SIZE), tp = _end + hartid *
// __tls_block_size, gp = __global_pointer, then __init_tls. For lanes that ran
// the start-up code this changes nothing (the entry is called with that same
// sp).
//
//===----------------------------------------------------------------------===//

#include "EntryStub.h"

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

/// The shared routine: entered with the entry's address in t1 and its
/// argument in a0; returns to the stub's caller.
static std::string setupRoutine() {
  std::string S;
  raw_string_ostream OS(S);
  OS << "\t.section\t.text." << SetupName << ",\"axR\",@progbits\n"
     << "\t.weak\t" << SetupName << "\n"
     << "\t.type\t" << SetupName << ",@function\n"
     << "\t.p2align\t2\n"
     << SetupName << ":\n"
     << "\tcsrr\tt0, 0xf14\n" // mhartid
     << "\tli\tt2, " << format("0x%llx", (unsigned long long)StackBase) << "\n"
     << "\tslli\tt3, t0, " << StackLog2Size << "\n"
     << "\tsub\tsp, t2, t3\n"
     << "\tlui\tt3, %hi(__tls_block_size)\n"
     << "\taddi\tt3, t3, %lo(__tls_block_size)\n"
     << "\tmul\tt0, t0, t3\n"
     << "\tlui\ttp, %hi(_end)\n"
     << "\taddi\ttp, tp, %lo(_end)\n"
     << "\tadd\ttp, tp, t0\n"
     << "\t.option\tpush\n\t.option\tnorelax\n"
     << "\tlui\tgp, %hi(__global_pointer)\n"
     << "\taddi\tgp, gp, %lo(__global_pointer)\n"
     << "\t.option\tpop\n"
     << "\taddi\tsp, sp, -16\n"
     << "\tsw\tra, 12(sp)\n"
     << "\tsw\ta0, 8(sp)\n"
     << "\tsw\tt1, 4(sp)\n"
     << "\tcall\t__init_tls\n"
     << "\tlw\ta0, 8(sp)\n"
     << "\tlw\tt1, 4(sp)\n"
     << "\tjalr\tra, t1\n"
     << "\tlw\tra, 12(sp)\n"
     << "\taddi\tsp, sp, 16\n"
     << "\tret\n"
     << "\t.size\t" << SetupName << ", .-" << SetupName << "\n";
  return S;
}

void emitKernelEntryStub(Module &M, StringRef KEntry, StringRef Entry) {
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
     << KEntry << ":\n"
     << "\tlui\tt1, %hi(" << Entry << ")\n"
     << "\taddi\tt1, t1, %lo(" << Entry << ")\n"
     << "\tj\t" << SetupName << "\n"
     << "\t.size\t" << KEntry << ", .-" << KEntry << "\n"
     << "\t.text\n";
  M.appendModuleInlineAsm(S);
}

} // namespace vortex
} // namespace crosslane
