# Developer entry points; a fresh machine starts with scripts/demo.sh and
# scripts/test.sh, which install the dependencies (make included) first.
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_SECONDS ?= 60

.PHONY: all deps build test test-plain test-asan demo fuzz clean

all: build

deps:
	bash scripts/install-deps.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# Every test, twice: a normal build, then with AddressSanitizer and
# UndefinedBehaviorSanitizer (leaks are errors).
test: test-plain test-asan

test-plain: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCR_SANITIZE=ON
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ctest --output-on-failure -j $(JOBS)  # sanitizer options: tests/CMakeLists.txt

demo: build
	./$(BUILD)/app/cueref demo

# libFuzzer on the event stream reader (needs clang): make fuzz FUZZ_SECONDS=600
fuzz:
	CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCR_FUZZ=ON -DCR_WERROR=OFF
	cmake --build build-fuzz --target fuzz_jsonl -j $(JOBS)
	mkdir -p build-fuzz/corpus && cp fuzz/corpus/* build-fuzz/corpus/
	./build-fuzz/fuzz/fuzz_jsonl -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -dict=fuzz/jsonl.dict build-fuzz/corpus

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz
