#!/usr/bin/python3
"""check_npy.py FILE DESCR SHAPE RAW RAWDTYPE: loads FILE with numpy and checks its dtype, shape
and values against RAW (little-endian values of RAWDTYPE; "bf16" is decoded here by shifting the
16 bits into a float32, "e4m3"/"e5m2" by the format's formula). SHAPE is comma separated.
A CSV FILE (DESCR "csv") is read with numpy.loadtxt instead."""
import sys
import numpy as np

path, descr, shape, raw, raw_dtype = sys.argv[1:6]
shape = tuple(int(s) for s in shape.split(",") if s)


def f8(codes, e_bits, m_bits, has_inf):
    bias = (1 << (e_bits - 1)) - 1
    codes = codes.astype(np.int64)
    sign = np.where(codes & 0x80, -1.0, 1.0)
    e = (codes >> m_bits) & ((1 << e_bits) - 1)
    m = codes & ((1 << m_bits) - 1)
    v = np.where(e == 0, m * 2.0 ** (1 - bias - m_bits), (1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias))
    all_e = e == (1 << e_bits) - 1
    if has_inf:
        v = np.where(all_e & (m == 0), np.inf, np.where(all_e, np.nan, v))
    else:
        v = np.where(all_e & (m == (1 << m_bits) - 1), np.nan, v)
    return (sign * v).astype(np.float32)


if raw_dtype == "bf16":
    want = (np.fromfile(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
elif raw_dtype == "e4m3":
    want = f8(np.fromfile(raw, dtype=np.uint8), 4, 3, False)
elif raw_dtype == "e5m2":
    want = f8(np.fromfile(raw, dtype=np.uint8), 5, 2, True)
else:
    want = np.fromfile(raw, dtype=raw_dtype)
want = want.reshape(shape)

if descr == "csv":
    got = np.loadtxt(path, delimiter=",", dtype=want.dtype if want.dtype.kind != "b" else np.uint8, ndmin=len(shape))
    got = got.reshape(shape)
    if want.dtype.kind == "b":
        want = want.astype(np.uint8)
else:
    got = np.load(path)
    assert got.dtype.str == descr, f"descr {got.dtype.str} != {descr}"
assert got.shape == want.shape, f"shape {got.shape} != {want.shape}"
if got.dtype.kind in "fc":
    ok = (got == want) | (np.isnan(got) & np.isnan(want))
else:
    ok = got == want
assert ok.all(), f"{int((~ok).sum())} values differ"
print("ok")
