#!/usr/bin/env bash
# README command (2): install dependencies, build everything with warnings as errors, run every test;
# then build again with AddressSanitizer + UndefinedBehaviorSanitizer (preset asan) and run the
# suite again, where any sanitizer report, a leak included, fails the test that caused it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
build=${TENSORSCOPE_BUILD_DIR:-build/main}
cmake -S . -B "$build" -G Ninja -DTENSORSCOPE_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"

# The sanitizer options and suppressions are set per test by tests/CMakeLists.txt. The asan test
# preset leaves out the package test (label package): it packages the build tree it runs in and
# checks that .deb (and, under .ci/run's TENSORSCOPE_CI=1, installs it on this machine), which the
# normal run above did; a sanitized .deb is no product. The style test (label style) reads the
# sources, not the build, and passed above as well.
cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)"
ctest --preset asan -j"$(nproc)"

# Every libFuzzer target (clang, ASan + UBSan) for 60 s, two at a time, from the committed seeds
# and regression inputs: a crash, a sanitizer report or a broken invariant fails CI. Longer runs
# and their results: tests/fuzz/README.md.
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
sh tests/fuzz/run-fuzzers.sh -j2 60
