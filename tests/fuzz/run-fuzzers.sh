#!/bin/sh
# Runs libFuzzer targets for SECONDS each and fails if any finds a crash.
#   tests/fuzz/run-fuzzers.sh [-j2] SECONDS [BUILD_DIR [TARGET...]]
# -j2 runs two targets at a time (each on its own core), so every target gets its SECONDS in about
# half the wall time; without it they run one after the other. TARGET... picks targets (default:
# all six). BUILD_DIR defaults to build-fuzz (cmake --preset fuzz && cmake --build --preset fuzz).
# Each target's corpus lives in BUILD_DIR/fuzz-corpus/TARGET, seeded from the conformance cases,
# the real shard index and tests/fuzz/seeds/TARGET; crash inputs land in
# BUILD_DIR/fuzz-artifacts/TARGET/. Copy a crash input into tests/fuzz/regressions/TARGET/ once
# fixed: the normal build replays that folder as a ctest.
# Exit status: 0 nothing found, 1 a target found something (or failed), 2 usage or a fuzzer is not built.
set -eu
usage="usage: run-fuzzers.sh [-j2] SECONDS [BUILD_DIR [TARGET...]]"
jobs=1
case "${1:-}" in
-j1) jobs=1; shift ;;
-j2) jobs=2; shift ;;
-j*) echo "run-fuzzers: only -j1 and -j2 are supported" >&2; exit 2 ;;
esac
seconds=${1:-}
case "$seconds" in
''|*[!0-9]*) echo "$usage" >&2; exit 2 ;;
esac
shift
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build-fuzz}
[ $# -gt 0 ] && shift
targets=${*:-fuzz_header fuzz_shard_index fuzz_metadata_roundtrip fuzz_scan fuzz_convert fuzz_pickle}
shared=$(cd "$root/.." && pwd)/shared
status=0

for target in $targets; do
    if [ ! -x "$build/tests/fuzz/$target" ]; then
        echo "run-fuzzers: $build/tests/fuzz/$target is missing; build the fuzz preset first" >&2
        exit 2
    fi
done

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

seed fuzz_header "$root/tests/data/conformance/cases" "$here/seeds/fuzz_header"
seed fuzz_metadata_roundtrip "$root/tests/data/conformance/cases" "$here/seeds/fuzz_header"
seed fuzz_shard_index "$shared/fixtures/real/face_recognition_sharded/model.safetensors.index.json" \
    "$here/seeds/fuzz_shard_index"
# The engine targets take their first bytes as options and the rest as tensor bytes: the generated
# seeds (seeds/make_seeds.py) hold every dtype's special values, the conformance files add variety.
seed fuzz_scan "$here/seeds/fuzz_scan" "$root/tests/data/conformance/cases"
seed fuzz_convert "$here/seeds/fuzz_convert" "$root/tests/data/conformance/cases"
seed fuzz_pickle "$root/tests/pickle/data/torch" "$root/tests/pickle/data/emulated" "$root/tests/pickle/data/hostile" \
    "$root/tests/pickle/data/malformed" "$root/tests/pickle/data/mutants" "$here/seeds/fuzz_pickle"

# fuzz_convert and fuzz_metadata_roundtrip save a file per input, fsync included: on a disk that
# is most of their time, on tmpfs nothing (measured: 100 against 1000 inputs a second).
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    export TMPDIR=/dev/shm
fi

# Runs one target in the foreground; its verdict goes to BUILD_DIR/fuzz-artifacts/TARGET.status.
run() {
    target=$1
    log=$build/fuzz-artifacts/$target.log
    case $target in
    # The format's keywords and the u64 edges help the header parsers, not the tensor engines.
    fuzz_header|fuzz_shard_index|fuzz_metadata_roundtrip) dict="-dict=$here/safetensors.dict" ;;
    fuzz_pickle) dict="-dict=$here/pickle.dict" ;;
    *) dict= ;;
    esac
    # -max_len 65536: big enough for every seed, for headers with thousands of tensors, and for
    # the engine targets' 64 KiB tensors.
    if "$build/tests/fuzz/$target" "$build/fuzz-corpus/$target" -max_total_time="$seconds" -max_len=65536 \
            -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 $dict \
            -artifact_prefix="$build/fuzz-artifacts/$target/" 2>"$log"; then
        echo 0 >"$build/fuzz-artifacts/$target.status"
    else
        echo 1 >"$build/fuzz-artifacts/$target.status"
    fi
}

report() {
    target=$1
    log=$build/fuzz-artifacts/$target.log
    if [ "$(cat "$build/fuzz-artifacts/$target.status")" != 0 ]; then
        echo "run-fuzzers: $target FAILED; see $log" >&2
        tail -n 40 "$log" >&2
        status=1
    fi
    echo "== $target (${seconds}s)"
    grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tail -n 3 || true
}

set -- $targets
while [ $# -gt 0 ]; do
    first=$1; shift
    if [ "$jobs" = 2 ] && [ $# -gt 0 ]; then
        second=$1; shift
        echo "== $first and $second for ${seconds}s"
        run "$first" &
        pid=$!
        run "$second"
        wait "$pid" || true
        report "$first"
        report "$second"
    else
        echo "== $first for ${seconds}s"
        run "$first"
        report "$first"
    fi
done
exit $status
