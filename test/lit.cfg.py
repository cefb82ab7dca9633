# -*- Python -*-
# Crosslane's lit configuration. Tools come from LLVM 22's bin directory
# (never the unversioned ones on PATH, which may be another LLVM).
import glob
import os
import sys

import lit.formats
from lit.llvm import llvm_config

config.name = "Crosslane"
# test/Vortex runs SimX programs one at a time (test/Vortex/lit.local.cfg).
lit_config.parallelism_groups["vortex-simx"] = 1
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ll", ".hip", ".test", ".mlir", ".c", ".td"]
config.excludes = ["Inputs", "Expected", "CMakeLists.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]
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
config.substitutions.append(("%crosslane-reduce",
                             os.path.join(bindir, "crosslane-reduce")))
config.substitutions.append(("%crosslane-vx-launch",
                             os.path.join(bindir, "crosslane-vx-launch")))
config.substitutions.append(("%crosslane_src", config.crosslane_src_root))
config.substitutions.append(("%crosslane_obj", config.crosslane_obj_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%crosslane-tblgen",
                             os.path.join(bindir, "crosslane-tblgen")))
config.substitutions.append(("%llvm_include", os.path.normpath(
    os.path.join(config.llvm_tools_dir, "..", "include"))))
config.substitutions.append(("%llvm-tblgen",
                             os.path.join(config.llvm_tools_dir, "llvm-tblgen")))

# A sanitizer build (make check-sanitize): every process of a test gets the
# ASan runtime first, so Crosslane's instrumented plugins load into
# Debian's uninstrumented opt/clang/lld. Leak checking is off: the
# uninstrumented tools (bash, python, LLVM's) exit without freeing.
if config.crosslane_asan_runtime:
    config.environment["LD_PRELOAD"] = config.crosslane_asan_runtime
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:abort_on_error=1:symbolize=1:"
        "detect_odr_violation=0")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"
    config.available_features.add("sanitize")

# Features: what this machine has.
if os.path.exists("/usr/include/hip/hip_runtime.h"):
    config.available_features.add("hip-headers")
if config.crosslane_have_unittests:
    config.available_features.add("unittests")
if os.path.exists(os.path.join(bindir, "crosslane-run")):
    config.available_features.add("executor")

# Vortex (SimX, v3.0): CROSSLANE_VORTEX_HOME or the shared copy beside the
# source tree. Kernels for it also need Debian's rv32 libgcc.a
# (gcc-riscv64-unknown-elf) and picolibc's headers
# (picolibc-riscv64-unknown-elf).
vortex_home = os.environ.get("CROSSLANE_VORTEX_HOME") or os.path.normpath(
    os.path.join(config.crosslane_src_root, "..", "shared", "vortex"))
vortex_libgcc = sorted(glob.glob(
    "/usr/lib/gcc/riscv64-unknown-elf/*/rv32imf/ilp32f/libgcc.a"))
vortex_picolibc = "/usr/lib/picolibc/riscv64-unknown-elf/include"
config.substitutions.append(("%vortex_home", vortex_home))
config.substitutions.append(
    ("%vortex_libgcc", vortex_libgcc[-1] if vortex_libgcc else "libgcc.a"))
config.substitutions.append(("%vortex_picolibc", vortex_picolibc))
config.substitutions.append(("%llvm_bin", config.llvm_tools_dir))
vortex_missing = []
if not os.path.exists(os.path.join(vortex_home, "prebuilt", "default",
                                   "runtime", "lib", "libvortex.so")):
    vortex_missing.append("Vortex at " + vortex_home +
                          " (set CROSSLANE_VORTEX_HOME)")
if not vortex_libgcc:
    vortex_missing.append("rv32 libgcc.a (apt-get install "
                          "gcc-riscv64-unknown-elf)")
if not os.path.isdir(vortex_picolibc):
    vortex_missing.append("picolibc headers (apt-get install "
                          "picolibc-riscv64-unknown-elf)")
config.environment["CROSSLANE_VORTEX_HOME"] = vortex_home
if vortex_missing and os.environ.get("CI") == "true":
    # CI always has ../shared/vortex: a skip there would hide a failure.
    lit_config.fatal("Vortex tests cannot run in CI, missing: " +
                     "; ".join(vortex_missing))
if vortex_missing:
    lit_config.warning("*** VORTEX TESTS SKIPPED *** missing: " +
                       "; ".join(vortex_missing))
elif config.crosslane_asan_runtime:
    # ASan's dlopen interceptor makes libvortex.so look for its backend
    # (libvortex-simx.so, no SONAME) in the interceptor's paths instead of
    # its own $ORIGIN: vx_device_open fails with VX_ERR_DEVICE_LOST, for
    # Vortex's own host programs too.
    lit_config.warning("*** VORTEX TESTS NOT RUN UNDER THE SANITIZERS *** "
                       "(libvortex.so cannot load its simulator with the "
                       "ASan runtime preloaded; `make check` runs them)")
else:
    config.available_features.add("vortex")

# clang-format-22 (tools/setup-deps.sh installs it) for the format check.
import shutil
if shutil.which("clang-format-22"):
    config.available_features.add("clang-format-22")
elif os.environ.get("CI") == "true":
    lit_config.fatal("the format check cannot run in CI: clang-format-22 is "
                     "missing (apt-get install clang-format-22)")
else:
    lit_config.warning("*** FORMAT CHECK SKIPPED *** clang-format-22 is "
                       "missing (apt-get install clang-format-22)")

# Intel's offline compiler and vISA verifier (Debian 12: intel-opencl-icd,
# libigc-tools; tools/setup-deps.sh installs them) referee the Xe tests.
xe_missing = [t for t in ("ocloc", "GenX_IR") if not shutil.which(t)]
if xe_missing and os.environ.get("CI") == "true":
    lit_config.fatal("Xe referee tests cannot run in CI, missing: " +
                     ", ".join(xe_missing) +
                     " (apt-get install intel-opencl-icd libigc-tools)")
if xe_missing:
    lit_config.warning("*** XE REFEREE TESTS SKIPPED *** missing: " +
                       ", ".join(xe_missing) +
                       " (apt-get install intel-opencl-icd libigc-tools)")
elif config.crosslane_asan_runtime:
    lit_config.warning("*** XE REFEREE TESTS NOT RUN UNDER THE SANITIZERS "
                       "*** (Intel's ocloc aborts with the ASan runtime "
                       "preloaded; `make check` runs them)")
else:
    config.available_features.add("ocloc")
