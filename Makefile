# Crosslane's entry points. Each target does its own set-up (Debian packages,
# configure, build), so each works from a fresh clone:
#   make demo    compile examples/ with the plugin, show what changed, run them
#   make check   build and run every test (lit + unit tests)
#   make check-sanitize   the same with ASan + UBSan (build-sanitize/)
#   make bench   benchmark the cross-lane code (bench/README.md)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all setup configure build check check-sanitize demo bench clean format

all: build

setup:
	@bash tools/setup-deps.sh

$(BUILD)/build.ninja: CMakeLists.txt | setup
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release \
	  -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: setup configure
	cmake --build $(BUILD) -j $(JOBS)

check: build
	cmake --build $(BUILD) -j $(JOBS) --target check-crosslane

# The whole suite with ASan + UBSan in a separate build directory.
SANITIZE_BUILD ?= build-sanitize
check-sanitize: setup
	cmake -S . -B $(SANITIZE_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DLLVM_DIR=/usr/lib/llvm-22/lib/cmake/llvm -DCROSSLANE_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_BUILD) -j $(JOBS) --target check-crosslane

demo: build
	@bash examples/demo.sh $(BUILD)

bench: build
	@bash bench/run.sh $(BUILD)

format:
	bash tools/format.sh

clean:
	rm -rf $(BUILD)
