#!/bin/sh
# The analysis benchmark in one run: writes 5 GiB under DIR once (default
# /tmp/tensorscope-analysis-bench), then measures; the 32 GiB RSS check uses a sparse file there.
# The scans run once per SIMD target the binary carries (the dispatcher held to each in turn).
# Usage: tests/bench/analysis/run_bench.sh BUILD_DIR [DIR]
set -eu
build=${1:?usage: run_bench.sh BUILD_DIR [DIR]}
dir=${2:-/tmp/tensorscope-analysis-bench}
mkdir -p "$dir"
here=$(dirname "$0")
"$build/tests/bench/analysis/bench_analysis" prepare "$dir"
for target in $("$build/tests/bench/analysis/bench_analysis" targets); do
    "$build/tests/bench/analysis/bench_analysis" run "$dir" "$target"
done
/usr/bin/python3 "$here/bench_numpy.py" "$dir/bench_f32.safetensors"
"$build/tests/bench/analysis/bench_analysis" rss "$dir"
