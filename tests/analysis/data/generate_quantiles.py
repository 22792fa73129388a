#!/usr/bin/python3
"""Expected quantiles for tests/analysis/tst_quantiles.cpp, computed independently with numpy.

Run with Debian's numpy:  /usr/bin/python3 generate_quantiles.py
Writes expected_quantiles.json next to this script. Each case's bytes come from the same
splitmix64 stream the test uses (below), decoded here by numpy or by hand, never by Tensorscope;
the quantiles are np.quantile(finite values as float64, q, method="inverted_cdf").
"""
import json
import math
import os

import numpy as np

LEVELS = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99]
MASK = (1 << 64) - 1


def splitmix64(seed):
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def stream_bytes(seed, size):
    out = bytearray()
    gen = splitmix64(seed)
    while len(out) < size:
        out += next(gen).to_bytes(8, "little")
    return bytes(out[:size])


def weights(seed, n):
    """Weight-like float64 values: (u1 + u2 + u3 + u4 - 2) * 0.02, u uniform in [0, 1)."""
    gen = splitmix64(seed)
    out = np.empty(n, dtype=np.float64)
    for i in range(n):
        s = 0.0
        for _ in range(4):
            s += (next(gen) >> 11) * 2.0**-53
        out[i] = (s - 2.0) * 0.02
    return out


BITS = {"BOOL": 8, "U8": 8, "I8": 8, "F8_E4M3": 8, "F8_E5M2": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8,
        "F8_E5M2FNUZ": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "I16": 16, "U16": 16, "F16": 16,
        "BF16": 16, "F32": 32, "I32": 32, "U32": 32, "F64": 64, "I64": 64, "U64": 64}


def nbytes(dtype, n):
    bits = BITS[dtype]
    return (n // 8) * bits + ((n % 8) * bits + 7) // 8


def minifloat(code, ebits, mbits, bias):
    sign = -1.0 if (code >> (ebits + mbits)) & 1 else 1.0
    e = (code >> mbits) & ((1 << ebits) - 1)
    m = code & ((1 << mbits) - 1)
    if e == 0:
        return sign * math.ldexp(m / (1 << mbits), 1 - bias)
    return sign * math.ldexp(1 + m / (1 << mbits), e - bias)


def f8(dtype, c):
    if dtype == "F8_E4M3":
        return math.nan if (c & 0x7F) == 0x7F else minifloat(c, 4, 3, 7)
    if dtype == "F8_E5M2":
        if (c & 0x7C) == 0x7C:
            return math.nan if c & 3 else (-math.inf if c & 0x80 else math.inf)
        return minifloat(c, 5, 2, 15)
    if dtype == "F8_E8M0":
        return math.nan if c == 0xFF else math.ldexp(1.0, c - 127)
    if dtype == "F8_E4M3FNUZ":
        return math.nan if c == 0x80 else minifloat(c, 4, 3, 8)
    if dtype == "F8_E5M2FNUZ":
        return math.nan if c == 0x80 else minifloat(c, 5, 2, 16)
    raise ValueError(dtype)


def decode(dtype, raw, n):
    """The n elements of `raw` as float64, by numpy or by the formats' definitions."""
    b = np.frombuffer(raw, dtype=np.uint8)
    if dtype == "BOOL":
        return (b[:n] != 0).astype(np.float64)
    if dtype == "U8":
        return b[:n].astype(np.float64)
    if dtype == "I8":
        return b[:n].view(np.int8).astype(np.float64)
    if dtype.startswith("F8_"):
        table = np.array([f8(dtype, c) for c in range(256)])
        return table[b[:n]]
    if dtype == "F4":  # element 2i is the low nibble of byte i
        codes = np.empty(n, dtype=np.int64)
        codes[0::2] = b[: (n + 1) // 2] & 0x0F
        codes[1::2] = b[: n // 2] >> 4
        table = np.array([minifloat(c, 2, 1, 1) for c in range(16)])
        return table[codes]
    if dtype in ("F6_E2M3", "F6_E3M2"):  # element k at bits [6k, 6k + 6) of a little-endian stream
        bits = int.from_bytes(raw, "little")
        codes = np.array([(bits >> (6 * k)) & 0x3F for k in range(n)])
        e, m, bias = (2, 3, 1) if dtype == "F6_E2M3" else (3, 2, 3)
        table = np.array([minifloat(c, e, m, bias) for c in range(64)])
        return table[codes]
    if dtype == "BF16":
        u = np.frombuffer(raw, dtype="<u2")[:n].astype(np.uint32) << 16
        return u.view(np.float32).astype(np.float64)
    np_type = {"I16": "<i2", "U16": "<u2", "F16": "<f2", "F32": "<f4", "I32": "<i4", "U32": "<u4",
               "F64": "<f8", "I64": "<i8", "U64": "<u8"}[dtype]
    return np.frombuffer(raw, dtype=np_type)[:n].astype(np.float64)


def encode(dtype, x):
    """Little-endian bytes of float64 values rounded to the dtype (numpy's round to nearest even)."""
    if dtype == "F64":
        return x.astype("<f8").tobytes()
    if dtype == "F32":
        return x.astype("<f4").tobytes()
    if dtype == "F16":
        return x.astype("<f2").tobytes()
    if dtype == "BF16":  # float64 -> float32 -> bfloat16, both steps to nearest even
        u = x.astype("<f4").view(np.uint32).astype(np.uint64)
        return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype("<u2").tobytes()
    raise ValueError(dtype)


def case_bytes(kind, dtype, n, seed):
    if kind == "raw":
        return stream_bytes(seed, nbytes(dtype, n))
    if kind == "weights":
        return encode(dtype, weights(seed, n))
    if kind == "narrow":  # 1 + k ulp for k < 2^16: every value in one bucket of the leading 16 bits
        k = np.frombuffer(stream_bytes(seed, 8 * n), dtype="<u8") & 0xFFFF
        if dtype == "F32":
            return (np.float32(1) + k.astype(np.float32) * np.float32(2.0**-23)).astype("<f4").tobytes()
        return (1.0 + k.astype(np.float64) * 2.0**-52).astype("<f8").tobytes()
    raise ValueError(kind)


# (name, dtype, elements, seed, kind): the test builds the same bytes from the same description.
CASES = [(f"raw_{d}", d, 100000, 100 + i, "raw") for i, d in enumerate(BITS)]
CASES += [
    ("weights_F16", "F16", 200000, 7, "weights"),
    ("weights_BF16", "BF16", 200000, 8, "weights"),
    ("weights_F32", "F32", 2500000, 9, "weights"),  # more than one scan chunk of 4 MiB
    ("weights_F64", "F64", 300000, 10, "weights"),
    ("narrow_F32", "F32", 100000, 11, "narrow"),
    ("narrow_F64", "F64", 100000, 12, "narrow"),
    ("one_F32", "F32", 1, 13, "weights"),
    ("two_BF16", "BF16", 2, 14, "weights"),
    ("three_F64", "F64", 3, 15, "weights"),
    ("seven_F16", "F16", 7, 16, "weights"),
]


def main():
    out = {"levels": LEVELS, "cases": []}
    for name, dtype, n, seed, kind in CASES:
        x = decode(dtype, case_bytes(kind, dtype, n, seed), n)
        finite = x[np.isfinite(x)]
        entry = {"name": name, "dtype": dtype, "elements": n, "seed": seed, "kind": kind,
                 "zeros": int((x == 0).sum())}
        if finite.size:
            entry["quantiles"] = [float(v) for v in np.quantile(finite, LEVELS, method="inverted_cdf")]
        out["cases"].append(entry)
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "expected_quantiles.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
