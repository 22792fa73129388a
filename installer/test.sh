#!/usr/bin/env bash
# README command (2): install dependencies, build everything with warnings as errors, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
build=${TENSORSCOPE_BUILD_DIR:-build/main}
cmake -S . -B "$build" -G Ninja -DTENSORSCOPE_WERROR=ON >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
