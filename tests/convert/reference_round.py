#!/usr/bin/python3
"""Independent reference for dtype conversion: reference_round.py TARGET SOURCE in.bin out.bin

SOURCE is float32, float64, float16 (read by numpy), or bfloat16, F8_E4M3, F8_E5M2 (raw codes,
decoded here from the format's definition). TARGET is F16, BF16, F8_E4M3, F8_E5M2,
F32 or F64. Writes the expected raw output and prints "overflowed underflowed nan".

F16, F32 and F64 come from numpy's own casts. BF16 and the F8 formats come from first
principles: every finite code of the format is decoded by its formula, and each input takes the
nearest code, ties to the even code; one code past the largest finite value stands for
"overflow" (Inf, or a saturated 448 for F8_E4M3, which has no Inf). For F16 the same rule method
is also checked against numpy, so the method itself is tested.
"""
import sys
import numpy as np

FORMATS = {  # exponent bits, mantissa bits, has Inf
    "F16": (5, 10, True),
    "BF16": (8, 7, True),
    "F8_E5M2": (5, 2, True),
    "F8_E4M3": (4, 3, False),
}


def code_values(e_bits, m_bits, has_inf):
    bias = (1 << (e_bits - 1)) - 1
    all_ones = (1 << e_bits) - 1
    # Finite codes, then one sentinel: the next code up, valued as if the exponent were unbounded.
    last = (all_ones << m_bits) if has_inf else ((all_ones << m_bits) | ((1 << m_bits) - 1))
    codes = np.arange(last + 1, dtype=np.int64)
    e = codes >> m_bits
    m = codes & ((1 << m_bits) - 1)
    vals = np.where(e == 0, m * 2.0 ** (1 - bias - m_bits), (1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias))
    return vals.astype(np.float64), last


def by_rules(x, target):
    e_bits, m_bits, has_inf = FORMATS[target]
    vals, sentinel = code_values(e_bits, m_bits, has_inf)
    sign_bit = 1 << (e_bits + m_bits)
    a = np.abs(x)
    finite = np.isfinite(x)
    nan = np.isnan(x)
    af = np.where(finite, a, 0.0)
    hi = np.clip(np.searchsorted(vals, af, side="left"), 0, len(vals) - 1)
    lo = np.clip(hi - 1, 0, len(vals) - 1)
    d_lo = af - vals[lo]
    d_hi = vals[hi] - af
    pick_hi = (d_hi < d_lo) | ((d_hi == d_lo) & (hi % 2 == 0))
    code = np.where(af >= vals[-1], sentinel, np.where(pick_hi, hi, lo))
    overflow = finite & (code == sentinel)
    max_code = sentinel - 1
    if has_inf:
        inf_code = sentinel
        nan_code = (((1 << e_bits) - 1) << m_bits) | (1 << (m_bits - 1))
    else:
        inf_code = max_code  # saturate
        nan_code = sentinel
        overflow = overflow | np.isinf(x)
        code = np.where(code == sentinel, max_code, code)
    code = np.where(np.isinf(x), inf_code, code)
    code = np.where(nan, nan_code, code)
    underflow = finite & (a != 0) & (code == 0)
    code = code | np.where(np.signbit(x), sign_bit, 0)
    dtype = np.uint8 if e_bits + m_bits < 8 else np.uint16
    return code.astype(dtype), int(overflow.sum()), int(underflow.sum()), int(nan.sum())


def decode(codes, fmt):
    e_bits, m_bits, has_inf = FORMATS[fmt]
    bias = (1 << (e_bits - 1)) - 1
    codes = codes.astype(np.int64)
    sign = np.where((codes >> (e_bits + m_bits)) & 1, -1.0, 1.0)
    e = (codes >> m_bits) & ((1 << e_bits) - 1)
    m = codes & ((1 << m_bits) - 1)
    v = np.where(e == 0, m * 2.0 ** (1 - bias - m_bits), (1 + m / 2.0 ** m_bits) * 2.0 ** (e - bias))
    top = e == (1 << e_bits) - 1
    if has_inf:
        v = np.where(top & (m == 0), np.inf, np.where(top, np.nan, v))
    else:
        v = np.where(top & (m == (1 << m_bits) - 1), np.nan, v)
    return np.copysign(v, sign)  # sign * NaN would drop the sign of negative NaNs


def read_source(source, path):
    if source in ("float32", "float64", "float16"):
        return np.fromfile(path, dtype={"float32": "<f4", "float64": "<f8", "float16": "<f2"}[source])
    if source == "bfloat16":
        return decode(np.fromfile(path, dtype="<u2"), "BF16")
    return decode(np.fromfile(path, dtype=np.uint8), source)


def main():
    target, source, src_path, out_path = sys.argv[1:5]
    x = read_source(source, src_path)
    x64 = x.astype(np.float64)
    if target in ("F16", "F32", "F64"):
        np_type = {"F16": np.float16, "F32": np.float32, "F64": np.float64}[target]
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            y = x.astype(np_type)
        over = int((np.isfinite(x) & np.isinf(y)).sum())
        under = int((np.isfinite(x) & (x != 0) & (y == 0)).sum())
        nan = int(np.isnan(x).sum())
        if target == "F16":
            codes, o2, u2, n2 = by_rules(x64, "F16")
            bits = y.view(np.uint16)
            same = (bits == codes) | (np.isnan(y) & np.isnan(codes.view(np.float16)))
            assert same.all(), "the rule method disagrees with numpy float16"
            assert (o2, u2, n2) == (over, under, nan)
        y.astype(y.dtype.newbyteorder("<")).tofile(out_path)
    else:
        codes, over, under, nan = by_rules(x64, target)
        codes.astype(codes.dtype.newbyteorder("<")).tofile(out_path)
    print(over, under, nan)


main()
