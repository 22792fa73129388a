#!/bin/sh
# Runs every libFuzzer target for SECONDS each, one after the other, and fails if any finds a crash.
#   tests/fuzz/run-fuzzers.sh SECONDS [BUILD_DIR]
# BUILD_DIR defaults to build-fuzz (cmake --preset fuzz && cmake --build --preset fuzz).
# Each target's corpus lives in BUILD_DIR/fuzz-corpus/TARGET, seeded from the conformance cases and
# the real shard index; crash inputs land in BUILD_DIR/fuzz-artifacts/TARGET/. Copy a crash input
# into tests/fuzz/regressions/TARGET/ once fixed: the normal build replays that folder as a ctest.
set -eu
seconds=${1:?usage: run-fuzzers.sh SECONDS [BUILD_DIR]}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${2:-$root/build-fuzz}
shared=$(cd "$root/.." && pwd)/shared
status=0

seed() { # target, seed files or folders...
    target=$1; shift
    corpus=$build/fuzz-corpus/$target
    mkdir -p "$corpus" "$build/fuzz-artifacts/$target"
    for s in "$@"; do
        if [ -d "$s" ]; then cp -n "$s"/* "$corpus"/ 2>/dev/null || true
        elif [ -f "$s" ]; then cp -n "$s" "$corpus"/ 2>/dev/null || true
        fi
    done
    cp -n "$here/regressions/$target"/* "$corpus"/ 2>/dev/null || true
}

seed fuzz_header "$root/tests/data/conformance/cases"
seed fuzz_metadata_roundtrip "$root/tests/data/conformance/cases"
seed fuzz_shard_index "$shared/fixtures/real/face_recognition_sharded/model.safetensors.index.json" \
    "$here/seeds/fuzz_shard_index"

for target in fuzz_header fuzz_shard_index fuzz_metadata_roundtrip; do
    bin=$build/tests/fuzz/$target
    if [ ! -x "$bin" ]; then
        echo "run-fuzzers: $bin is missing; build the fuzz preset first" >&2
        exit 2
    fi
    echo "== $target for ${seconds}s"
    # -max_len 65536: big enough for every seed and for headers with thousands of tensors.
    if ! "$bin" "$build/fuzz-corpus/$target" -max_total_time="$seconds" -max_len=65536 -timeout=5 \
            -rss_limit_mb=2048 -print_final_stats=1 -dict="$here/safetensors.dict" \
            -artifact_prefix="$build/fuzz-artifacts/$target/" 2>"$build/fuzz-artifacts/$target.log"; then
        echo "run-fuzzers: $target FAILED; see $build/fuzz-artifacts/$target.log" >&2
        tail -n 40 "$build/fuzz-artifacts/$target.log" >&2
        status=1
    fi
    grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb)' \
        "$build/fuzz-artifacts/$target.log" | tail -n 3 || true
done
exit $status
