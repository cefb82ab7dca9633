# -*- Python -*-
# Crosslane's lit configuration. Tools come from LLVM 22's bin directory
# (never the unversioned ones on PATH, which may be another LLVM).
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "Crosslane"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ll", ".hip", ".test", ".mlir", ".c"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.crosslane_obj_root, "test")

llvm_config.use_default_substitutions()
tools = ["opt", "llc", "clang", "FileCheck", "not", "count", "llvm-mc",
         "llvm-mca", "llvm-as", "llvm-dis", "llvm-link", "ld.lld",
         "mlir-opt", "mlir-translate", "llvm-objdump"]
llvm_config.add_tool_substitutions(tools, config.llvm_tools_dir)

bindir = os.path.join(config.crosslane_obj_root, "bin")
config.substitutions.append(("%plugin", config.crosslane_plugin))
config.substitutions.append(("%clangplugin", config.crosslane_clang_plugin))
config.substitutions.append(("%loadcrosslane",
                             "-load-pass-plugin=" + config.crosslane_plugin))
config.substitutions.append(("%hipcc", os.path.join(bindir, "crosslane-hipcc")))
config.substitutions.append(("%crosslane-run", os.path.join(bindir, "crosslane-run")))
config.substitutions.append(("%crosslane_src", config.crosslane_src_root))
config.substitutions.append(("%crosslane_obj", config.crosslane_obj_root))
config.substitutions.append(("%python", sys.executable))

# Features: what this machine has.
if os.path.exists("/usr/include/hip/hip_runtime.h"):
    config.available_features.add("hip-headers")
if config.crosslane_have_unittests:
    config.available_features.add("unittests")
if os.path.exists(os.path.join(bindir, "crosslane-run")):
    config.available_features.add("executor")
