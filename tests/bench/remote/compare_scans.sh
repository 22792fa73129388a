#!/bin/bash
# Two tensorscope-cli builds (or one with different options) scanning the same URL, interleaved
# with curl's plain download of it in one loop: the medians of RUNS runs each. Run nginx yourself
# (or leave bench_remote's running) with the file in the page cache.
# usage: compare_scans.sh URL RUNS "label:path/to/tensorscope-cli:scan options" ...
set -euo pipefail
url=$1
runs=$2
shift 2
size=$(curl -sI "$url" | tr -d '\r' | awk 'tolower($1)=="content-length:" {print $2}')
export XDG_CONFIG_HOME=${XDG_CONFIG_HOME:-$(mktemp -d)} XDG_CACHE_HOME=${XDG_CACHE_HOME:-$(mktemp -d)}
seconds() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N); echo "$e - $s" | bc; }
for _ in $(seq "$runs"); do
  echo "curl $(seconds curl -s -o /dev/null "$url")"
  for case in "$@"; do
    IFS=: read -r label cli options <<<"$case"
    # shellcheck disable=SC2086 # the options are words
    echo "$label $(seconds "$cli" scan $options --cache-size 0 "$url")"
  done
done | python3 -c '
import collections, statistics, sys
size = int(sys.argv[1])
times = collections.defaultdict(list)
for line in sys.stdin:
    label, value = line.split()
    times[label].append(float(value))
curl = statistics.median(times["curl"])
for label, v in times.items():
    m = statistics.median(v)
    print(f"{label:14s} median {m:.3f} s  {size / m / 1e6:6.0f} MB/s  {100 * curl / m:5.1f}% of curl  (min {min(v):.3f} s)")
' "$size"
