#!/usr/bin/env python3
"""Issue #21 in one run: `tensorscope-cli validate`, `info` and `ls` on large headers, each as a
child process timed (best of RUNS, wall clock) and measured (peak RSS from wait4), reported as
ratios: info and ls against validate, peak RSS against the header's size.

usage: bench_large_headers.py CLI [--dir DIR] [--runs N]

Headers (written once into DIR, default /tmp/ts-bench-large; the data is a sparse hole):
  h100k   100 000 tensors, transformer names (make_large_header.py --tensors 100000)
  dense   the most object-form tensors under the 100 MB cap, short names (make_large_header.py --dense)
  dense4m the most array-form tensors under the cap, 4 176 925 (tests/hostile/tools/make_dense_header.py)

Goals (issue #21): info and ls at most 1.3x validate on h100k; every command under 10 s and at most
8x the header + 60 MiB of peak RSS.
"""
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
COMMANDS = ["validate", "info", "ls"]


def header_bytes(path):
    with open(path, "rb") as f:
        return int.from_bytes(f.read(8), "little")


def make(directory):
    os.makedirs(directory, exist_ok=True)
    made = []
    for name, tool, args in [
        ("h100k", os.path.join(HERE, "make_large_header.py"), ["--tensors", "100000"]),
        ("dense", os.path.join(HERE, "make_large_header.py"), ["--dense"]),
        ("dense4m", os.path.join(ROOT, "tests", "hostile", "tools", "make_dense_header.py"), []),
    ]:
        path = os.path.join(directory, name + ".safetensors")
        if not os.path.exists(path):
            subprocess.run([sys.executable, tool, path] + args, check=True, stdout=subprocess.DEVNULL)
        made.append((name, path))
    return made


def run_once(cli, command, path):
    with open(os.devnull, "wb") as sink:
        start = time.monotonic()
        child = subprocess.Popen([cli, command, path], stdout=sink, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err = child.stderr.read()
        child.stderr.close()
    if child.returncode != 0:
        sys.exit("%s %s %s failed (%d): %s" % (cli, command, path, child.returncode, err.decode()[:500]))
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cli = os.path.abspath(sys.argv[1])
    directory = sys.argv[sys.argv.index("--dir") + 1] if "--dir" in sys.argv else "/tmp/ts-bench-large"
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 3
    failures = []
    # CPU seconds (user + system, best run) beside the wall time: on a shared machine the wall
    # time follows the load average, the CPU time much less.
    print("load average at start: %.1f" % os.getloadavg()[0])
    print("| header | tensors | header MB | command | best s | CPU s | x validate | peak RSS MiB | RSS / header | bound MiB |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, path in make(directory):
        n = header_bytes(path)
        bound = 8 * n + 60 * 1024 * 1024
        results = {}
        for command in COMMANDS:
            best, cpu, peak = None, None, 0
            for _ in range(runs):
                seconds, used, rss = run_once(cli, command, path)
                best = seconds if best is None else min(best, seconds)
                cpu = used if cpu is None else min(cpu, used)
                peak = max(peak, rss)
            results[command] = (best, cpu, peak)
        tensors = subprocess.run([cli, "validate", path], capture_output=True, text=True).stdout.split("(")[1].split(" ")[0]
        for command in COMMANDS:
            best, cpu, peak = results[command]
            ratio = best / results["validate"][0]
            print("| %s | %s | %.1f | %s | %.2f | %.2f | %.2f | %.0f | %.2f | %.0f |"
                  % (name, tensors, n / 1e6, command, best, cpu, ratio, peak / 2**20, peak / n, bound / 2**20))
            if best >= 10:
                failures.append("%s %s: %.1f s, the goal is under 10 s" % (name, command, best))
            if peak > bound:
                failures.append("%s %s: %.0f MiB, the bound is %.0f MiB" % (name, command, peak / 2**20, bound / 2**20))
            if name == "h100k" and command != "validate" and ratio > 1.3:
                failures.append("%s %s: %.2fx validate, the goal is at most 1.3x" % (name, command, ratio))
    print()
    print("goals met" if not failures else "goals missed:\n  " + "\n  ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
