#!/usr/bin/env python3
"""Writes a .safetensors file with many tensors for the large-header benchmarks (tests/bench/open):
transformer-style names (model.layers.L.self_attn.q_proj.weight, ...), F16/BF16 shapes, tensors
laid out layer by layer (not the reference writer's dtype-then-name order: opening notes
NonCanonicalOrder, the harder case for the order check), the data left as a hole (a sparse file), so a 1 M-tensor
model costs its header on disk and nothing more.

usage: make_large_header.py OUT --tensors N [--elements E]
       make_large_header.py OUT --dense      the most tensors that fit the 100 MB header cap
                                             (object form, short names, zero-size U8 tensors)
"""
import itertools
import json
import string
import struct
import sys

PARTS = ["input_layernorm.weight", "mlp.down_proj.weight", "mlp.gate_proj.weight", "mlp.up_proj.weight",
         "post_attention_layernorm.weight", "self_attn.k_proj.weight", "self_attn.o_proj.weight",
         "self_attn.q_proj.weight", "self_attn.v_proj.weight", "self_attn.rotary_emb.inv_freq"]


def transformer(n, elements):
    tensors = []
    offset = 0
    for i in range(n):
        name = "model.layers.%d.%s" % (i // len(PARTS), PARTS[i % len(PARTS)])
        dtype = "BF16" if i % 3 else "F16"
        shape = [elements] if "norm" in name or "inv_freq" in name else [elements // 8, 8]
        size = 2 * elements
        tensors.append((name, dtype, shape, offset, offset + size))
        offset += size
    return tensors, offset


def dense(cap):
    alphabet = string.digits + string.ascii_letters
    tensors = []
    size = 2
    for length in itertools.count(1):
        for chars in itertools.product(alphabet, repeat=length):
            entry = '"%s":{"dtype":"U8","shape":[0],"data_offsets":[0,0]}' % "".join(chars)
            if size + len(entry) + 1 > cap:
                return tensors, 0
            size += len(entry) + 1
            tensors.append(("".join(chars), "U8", [0], 0, 0))


def main():
    out = sys.argv[1]
    if "--dense" in sys.argv:
        tensors, data = dense(100_000_000 - 8)
    else:
        n = int(sys.argv[sys.argv.index("--tensors") + 1])
        elements = int(sys.argv[sys.argv.index("--elements") + 1]) if "--elements" in sys.argv else 64
        tensors, data = transformer(n, elements)
    body = ",".join('%s:{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}'
                    % (json.dumps(name), dtype, json.dumps(shape, separators=(",", ":")), b, e)
                    for name, dtype, shape, b, e in tensors)
    header = ("{" + body + "}").encode()
    header += b" " * (-len(header) % 8)
    with open(out, "wb") as f:
        f.write(struct.pack("<Q", len(header)))
        f.write(header)
        f.truncate(8 + len(header) + data)
    print("%s: %d tensors, header %d bytes, data %d bytes" % (out, len(tensors), len(header), data))


if __name__ == "__main__":
    main()
