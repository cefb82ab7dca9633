//===- Reference.h - Serial reference semantics of subgroup ops -*- C++ -*-===//
//
// Part of Crosslane, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Straightforward serial definitions of every `__crosslane_*` subgroup
/// operation over the active lanes of each cluster, registered as wave
/// executor builtins. Running a module before crosslane-expand-subgroup
/// executes these; the differential harness compares them bit for bit with
/// the expanded DPP code.
///
//===----------------------------------------------------------------------===//

#ifndef CROSSLANE_SUBGROUPREDUCE_REFERENCE_H
#define CROSSLANE_SUBGROUPREDUCE_REFERENCE_H

namespace crosslane {

/// Registers the builtins for the `__crosslane_reduce_` and
/// `__crosslane_arg` name prefixes with the executor (exec::registerBuiltin).
void registerSubgroupReferenceBuiltins();

} // namespace crosslane

#endif // CROSSLANE_SUBGROUPREDUCE_REFERENCE_H
