#!/usr/bin/env python3
"""Writes the seed inputs of fuzz_scan and fuzz_convert (tests/fuzz/seeds/<target>/), and the
duplicate-name headers of fuzz_header (tests/fuzz/seeds/fuzz_header/).

Each seed is the target's control bytes followed by tensor bytes full of the values the engines
treat specially: every code of the 8-bit and smaller dtypes, signed zeros, subnormals, the largest
finite values, Inf and NaN of both signs, and the rounding edges of the conversion targets
(65504 / 65520 for F16, 448 / 464 for F8_E4M3, 57344 / 61440 for F8_E5M2, ties between codes).
The byte layout is documented at the top of fuzz_scan.cpp and fuzz_convert.cpp.
Run it from anywhere: python3 tests/fuzz/seeds/make_seeds.py
"""
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# ts::Dtype order (core/format/Dtype.h).
DTYPES = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
          "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
          "F64", "I64", "U64"]
CONVERT_FORMATS = ["F64", "F32", "F16", "BF16", "F8_E4M3", "F8_E5M2"]  # fuzz_convert order

INF = float("inf")
NAN = float("nan")

# Values worth having in every wide float tensor.
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, -3.75, INF, -INF, NAN, -NAN,
           65504.0, 65519.996, 65520.0, 65536.0, -65520.0, 448.0, 464.0, 465.0, 480.0, -464.0,
           57344.0, 61439.0, 61440.0, 2.0 ** -14, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -26,
           2.0 ** -6, 2.0 ** -9, 2.0 ** -10, 2.0 ** -16, 2.0 ** -17, 2.0 ** -126, 2.0 ** -133,
           2.0 ** -134, 2.0 ** -149, 3.4028234663852886e38, -3.4028234663852886e38,
           1.0 + 2.0 ** -8, 1.0 + 3 * 2.0 ** -9, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -12, 1e20, -1e-20]
SPECIAL_F64 = SPECIAL + [1.7976931348623157e308, -1.7976931348623157e308, 5e-324, 2.2250738585072014e-308,
                         3.4028235677973366e38, 2.0 ** 128, 1e-300, 1.0 + 2.0 ** -24, 1.0 + 3 * 2.0 ** -25]


def f32(values):
    return b"".join(struct.pack("<f", v) if abs(v) <= 3.4028234663852886e38 or math.isinf(v) or math.isnan(v)
                    else struct.pack("<f", math.copysign(INF, v)) for v in values)


def f64(values):
    return b"".join(struct.pack("<d", v) for v in values)


def u16(codes):
    return b"".join(struct.pack("<H", c & 0xFFFF) for c in codes)


# 16-bit codes: specials of F16 and BF16, and a sweep over every 97th code.
CODES16 = [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x3C00, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00,
           0x7E00, 0xFE00, 0x7C01, 0x0080, 0x007F, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0x3F80,
           0x4780, 0x477F] + list(range(0, 0x10000, 97))


def payload(dtype):
    """Tensor bytes for one dtype: its codes or its special values."""
    if dtype in ("BOOL", "U8", "I8") or dtype.startswith("F8") or dtype in ("F4",):
        return bytes(range(256))
    if dtype.startswith("F6"):
        return bytes(range(256)) + bytes(range(255, -1, -1))[:128]  # 384 bytes = 512 codes
    if dtype in ("F16", "BF16", "I16", "U16"):
        return u16(CODES16)
    if dtype == "F32":
        return f32(SPECIAL)
    if dtype == "F64":
        return f64(SPECIAL_F64)
    if dtype == "C64":
        vals = SPECIAL
        return f32([v for pair in zip(vals, reversed(vals)) for v in pair])
    if dtype in ("I32", "U32"):
        return b"".join(struct.pack("<I", c) for c in
                        [0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 12345, 0x01000001, 0x00FFFFFF])
    if dtype in ("I64", "U64"):
        return b"".join(struct.pack("<Q", c) for c in
                        [0, 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1, 2 ** 53 + 1, 12345, 2 ** 24 + 1])
    raise ValueError(dtype)


def write(target, name, data):
    folder = os.path.join(HERE, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def scan_seeds():
    for i, dtype in enumerate(DTYPES):
        body = payload(dtype)
        # 16 bins, log histogram, 2 threads, a 2-D main tensor and a second tensor; heatmap of 38 cells.
        write("fuzz_scan", f"{dtype}-specials", bytes([i, 15, 0, 0x63, 0x13, 0x15]) + body)
        # A constant tensor (numpy widens its histogram range), 1 bin, 3 threads, rank 3, an empty tensor.
        element = max(1, len(body) // 64) if dtype not in ("F4",) else 1
        write("fuzz_scan", f"{dtype}-constant", bytes([i, 0, 0, 0xB5, 0x2A, 0x86]) + body[:element] * 64)
    # The tiled tensor past 1 MiB: the scanner's chunks and threads.
    for dtype in ("F32", "U8", "F4", "F16", "C64", "I64"):
        i = DTYPES.index(dtype)
        write("fuzz_scan", f"{dtype}-tiled", bytes([i, 99, 0x0C, 0x0D, 0x40, 0x91]) + payload(dtype))


def convert_payload(fmt):
    if fmt in ("F8_E4M3", "F8_E5M2"):
        return bytes(range(256))
    if fmt in ("F16", "BF16"):
        return u16(CODES16)
    if fmt == "F32":
        return f32(SPECIAL)
    return f64(SPECIAL_F64)


def convert_seeds():
    for i, src in enumerate(CONVERT_FORMATS):
        for j, dst in enumerate(CONVERT_FORMATS):
            # A 2-D tensor, and a second one converted to the next format by --dtype-for.
            write("fuzz_convert", f"{src}-to-{dst}", bytes([i, j | 0x60, (j + 1) % 6, 0x37, 0x01]) + convert_payload(src))


def entry(name, dtype, shape, begin, end):
    return f'"{name}":{{"dtype":"{dtype}","shape":{shape},"data_offsets":[{begin},{end}]}}'


def safetensors(entries, data_bytes):
    header = ("{" + ",".join(entries) + "}").encode()
    return struct.pack("<Q", len(header)) + header + bytes(i & 0xFF for i in range(data_bytes))


def header_seeds():
    """A tensor name declared more than once, in every position. The reference keeps the last
    declaration (a HashMap); fuzz_header compares our verdict with Qt's reading, which also keeps
    the last. Valid ones are valid only under that rule; invalid ones break it in each way."""
    e = entry
    seeds = {
        # valid under last-wins
        "dup-last": ([e("a", "F32", "[2]", 0, 8), e("b", "U8", "[2]", 8, 10), e("b", "U8", "[4]", 8, 12)], 12),
        "dup-first": ([e("a", "U8", "[3]", 0, 3), e("a", "F32", "[2]", 0, 8), e("b", "I16", "[2,2]", 8, 16)], 16),
        "dup-middle-adjacent": ([e("a", "F32", "[2]", 0, 8), e("b", "U8", "[1]", 8, 9), e("b", "U8", "[2,4]", 8, 16),
                                 e("c", "I32", "[2]", 16, 24)], 24),
        "dup-apart": ([e("x", "U8", "[4]", 0, 4), e("a", "U8", "[1]", 4, 5), e("y", "F32", "[2,1]", 8, 16),
                       e("a", "U8", "[2,2]", 4, 8)], 16),
        "dup-two-names-interleaved": ([e("a", "U8", "[1]", 0, 1), e("b", "U8", "[1]", 1, 2), e("a", "F32", "[1,2]", 0, 8),
                                       e("b", "I64", "[1]", 8, 16)], 16),
        "dup-two-names-after-survivor": ([e("z", "U16", "[2]", 0, 4), e("a", "U8", "[1]", 4, 5), e("b", "U8", "[1]", 5, 6),
                                          e("a", "U8", "[2,2]", 4, 8), e("b", "F64", "[1,1]", 8, 16)], 16),
        "dup-three-in-a-row": ([e("x", "BF16", "[2]", 0, 4), e("a", "U8", "[1]", 4, 5), e("a", "U8", "[9]", 4, 13),
                                e("a", "I32", "[1,1]", 4, 8)], 8),
        "dup-three-apart": ([e("a", "U8", "[1]", 0, 1), e("x", "U8", "[2,2]", 0, 4), e("a", "U8", "[3]", 4, 7),
                             e("y", "F32", "[1]", 8, 12), e("a", "U16", "[2]", 4, 8)], 12),
        "dup-only-tensor": ([e("a", "U8", "[1]", 0, 1), e("a", "F32", "[3]", 0, 12)], 12),
        "dup-metadata-between": ([e("s", "I8", "[2,2]", 0, 4), e("a", "U8", "[1]", 4, 5), '"__metadata__":{"k":"v"}',
                                  e("a", "F32", "[1]", 4, 8)], 8),
        "dup-escaped-name": ([e("s", "F32", "[2]", 0, 8), e("a", "U8", "[1]", 8, 9), e("\\u0061", "U8", "[4]", 8, 12)], 12),
        # invalid under last-wins
        "dup-survivor-too-small": ([e("a", "F32", "[2]", 0, 4), e("b", "U8", "[2]", 4, 6), e("b", "U8", "[4]", 4, 8)], 8),
        "dup-last-leaves-hole": ([e("a", "U8", "[4]", 0, 4), e("b", "U8", "[4]", 4, 8), e("a", "U8", "[2]", 0, 2)], 8),
        "dup-last-wrong-size": ([e("x", "U8", "[4]", 0, 4), e("a", "U8", "[4]", 4, 8), e("a", "F32", "[4]", 4, 8)], 8),
        "dup-last-leaves-tail": ([e("x", "U8", "[4]", 0, 4), e("a", "U8", "[4]", 4, 8), e("a", "U8", "[2]", 4, 6)], 8),
        "dup-last-overlaps": ([e("x", "U8", "[4]", 0, 4), e("a", "U8", "[4]", 4, 8), e("a", "U8", "[4]", 2, 6)], 8),
    }
    for name, (entries, data_bytes) in seeds.items():
        write("fuzz_header", name + ".safetensors", safetensors(entries, data_bytes))


if __name__ == "__main__":
    scan_seeds()
    convert_seeds()
    header_seeds()
