#!/usr/bin/python3
"""Writes heatmap-demo.safetensors: trained-looking weights with planted anomalies, for the heatmap
screenshot in README (resources/screenshots/heatmap-outlier.png):

  /usr/bin/python3 resources/screenshots/make_heatmap_demo.py /tmp/heatmap-demo.safetensors
  QT_QPA_PLATFORM=offscreen tensorscope --screenshot resources/screenshots/heatmap-outlier.png \
      --size 1280x820 --page tensors --select big.weight /tmp/heatmap-demo.safetensors
"""
import json
import struct
import sys

import numpy as np

rng = np.random.default_rng(1)
tensors = {}
corner = rng.normal(0, 0.02, (256, 512)).astype(np.float32)
corner[0, 0] = 50.0
tensors["corner.weight"] = corner
big = rng.normal(0, 0.02, (1024, 4096)).astype(np.float32)
big[1023, 4095] = 50.0
big[500, 100] = np.nan
big[10, 4000] = np.inf
big[900, 7] = -np.inf
tensors["big.weight"] = big
tensors["col.weight"] = rng.normal(0, 0.02, (300, 1)).astype(np.float32)
tensors["mask.u8"] = rng.integers(0, 255, (64, 64)).astype(np.uint8)

header, blobs, offset = {}, [], 0
for name, value in tensors.items():
    data = value.tobytes()
    dtype = {"float32": "F32", "uint8": "U8"}[str(value.dtype)]
    header[name] = {"dtype": dtype, "shape": list(value.shape), "data_offsets": [offset, offset + len(data)]}
    offset += len(data)
    blobs.append(data)
text = json.dumps(header).encode()
text += b" " * ((8 - len(text) % 8) % 8)
with open(sys.argv[1], "wb") as out:
    out.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))
