#!/usr/bin/python3
"""Expected statistics for tests/analysis, computed independently with numpy (float64 two-pass).

Run with Debian's numpy:  /usr/bin/python3 generate_expected.py ../../../../shared/fixtures/real
Writes expected_stats.json next to this script. The safetensors files are parsed by hand (8-byte
little-endian header length, JSON header, data) so no Tensorscope code is involved.
"""
import json
import math
import os
import struct
import sys

import numpy as np

BINS = 64
FILES = [
    "age_gender_anomalies_f32.safetensors",
    "face_landmark_68_f32.safetensors",
    "face_recognition_f16.safetensors",
    "ssd_mobilenetv1_bf16.safetensors",
    "tiny_face_detector_u8.safetensors",
]
MIN_NORMAL = {"F32": 2.0**-126, "BF16": 2.0**-126, "F16": 2.0**-14}
QUANTILES = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99]


def decode(dtype, raw):
    if dtype == "F32":
        return np.frombuffer(raw, dtype="<f4").astype(np.float64)
    if dtype == "F16":
        return np.frombuffer(raw, dtype="<f2").astype(np.float64)
    if dtype == "BF16":
        u = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        return u.view(np.float32).astype(np.float64)
    if dtype == "I32":
        return np.frombuffer(raw, dtype="<i4").astype(np.float64)
    if dtype == "U8":
        return np.frombuffer(raw, dtype=np.uint8).astype(np.float64)
    raise ValueError(dtype)


def num(x):
    return None if (isinstance(x, float) and not math.isfinite(x)) else float(x)


def stats(dtype, x):
    finite = np.isfinite(x)
    f = x[finite]
    out = {
        "count": int(x.size),
        "nan": int(np.isnan(x).sum()),
        "posinf": int(np.isposinf(x).sum()),
        "neginf": int(np.isneginf(x).sum()),
        "zeros": int((x == 0).sum()),
        "zero_share": float((x == 0).sum() / x.size) if x.size else None,
        "nan_indices": [int(i) for i in np.flatnonzero(np.isnan(x))[:16]],
        "inf_indices": [int(i) for i in np.flatnonzero(np.isinf(x))[:16]],
    }
    mn = MIN_NORMAL.get(dtype, 0.0)
    out["subnormals"] = int(((np.abs(f) < mn) & (f != 0)).sum())
    out["f16_overflow"] = int((np.abs(f) > 65504).sum())
    if f.size:
        mean = f.mean()
        out.update(min=float(f.min()), max=float(f.max()), absmax=float(np.abs(f).max()),
                   absmax_index=int(np.flatnonzero(np.isfinite(x) & (np.abs(x) == np.abs(f).max()))[0]),
                   mean=float(mean), std=float(np.sqrt(((f - mean) ** 2).mean())),
                   l2=float(np.sqrt((f * f).sum())))
        counts, edges = np.histogram(f, bins=BINS)
        out["hist"] = [int(c) for c in counts]
        out["hist_range"] = [float(edges[0]), float(edges[-1])]
        nz = f[f != 0]
        out["hist_zeros"] = int((f == 0).sum())
        out["quantiles"] = [float(q) for q in np.quantile(f, QUANTILES, method="inverted_cdf")]
        if nz.size:
            # math.log10 (the C library's) rather than np.log10: numpy's vectorised log10 differs in
            # the last bit for ~10% of values, which moves values sitting on a bin edge.
            logs = np.array([math.log10(v) for v in np.abs(nz)])
            lc, le = np.histogram(logs, bins=BINS)
            out["log_hist"] = [int(c) for c in lc]
            out["log_range"] = [float(le[0]), float(le[-1])]
    return out


def main():
    root = sys.argv[1]
    result = {"bins": BINS, "files": {}}
    for name in FILES:
        with open(os.path.join(root, name), "rb") as fh:
            blob = fh.read()
        (n,) = struct.unpack("<Q", blob[:8])
        header = json.loads(blob[8:8 + n])
        data = blob[8 + n:]
        tensors = {}
        for key, t in header.items():
            if key == "__metadata__":
                continue
            b, e = t["data_offsets"]
            tensors[key] = {"dtype": t["dtype"], **stats(t["dtype"], decode(t["dtype"], data[b:e]))}
        result["files"][name] = tensors
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "expected_stats.json"), "w") as fh:
        json.dump(result, fh, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
