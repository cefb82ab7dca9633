# Crosslane's entry points. Each target does its own set-up (Debian packages,
# configure, build), so each works from a fresh clone:
#   make demo    compile examples/ with the plugin, show what changed, run them
#   make check   build and run every test (lit + unit tests)
#   make bench   benchmark the cross-lane code (bench/README.md)
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all setup configure build check demo bench clean format

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

demo: build
	@bash examples/demo.sh $(BUILD)

bench: build
	@bash bench/run.sh $(BUILD)

format:
	bash tools/format.sh

clean:
	rm -rf $(BUILD)
