#!/usr/bin/python3
"""numpy as a user would do it on the same cached F32 file (Debian's python3-numpy).

Usage: /usr/bin/python3 bench_numpy.py /tmp/bench_f32.safetensors
"""
import json
import struct
import sys
import time

import numpy as np


def best(fn, reps=3):
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


path = sys.argv[1]
with open(path, "rb") as fh:
    (n,) = struct.unpack("<Q", fh.read(8))
    header = json.loads(fh.read(n))
begin, end = header["x"]["data_offsets"]
x = np.memmap(path, dtype=np.float32, mode="r", offset=8 + n + begin, shape=((end - begin) // 4,))
size = end - begin
x.sum()  # warm the page cache and the mapping

scan = best(lambda: int((~np.isfinite(x)).sum()))
def full():
    np.nanmin(x), np.nanmax(x), x.mean(), x.std()
    np.histogram(x, bins=256)
stats = best(full, reps=2)
print(f"numpy {np.__version__}: NaN/Inf count (~isfinite).sum()   {size / scan / 1e9:6.2f} GB/s  ({scan:.3f} s)")
print(f"numpy: nanmin+nanmax+mean+std+histogram(256)    {size / stats / 1e9:6.2f} GB/s  ({stats:.3f} s)")
