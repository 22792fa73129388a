#!/usr/bin/python3
"""The model the README's architecture and report screenshots show: a small Llama-style decoder
(transformers' names, 12 blocks, hidden 512; config.json says 8 heads and 2 KV heads, which the
shapes alone cannot split) with
seeded normal weights whose spread grows gently with depth, as trained models' do; block 7's
down_proj scaled 40x (what a bad merge leaves); and a config.json that claims 14 layers. Numpy and
the standard library only; the file is written the way the reference writer lays files out.

    /usr/bin/python3 make_audit_demo.py OUTDIR     # Debian's python3-numpy
then
    tensorscope --screenshot summary-architecture.png --size 1280x820 OUTDIR
    tensorscope-cli report OUTDIR -o report.html
"""
import json
import os
import struct
import sys

import numpy as np

LAYERS, HIDDEN, KV, INTER, VOCAB = 12, 512, 128, 1408, 4096


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(20260821)
    tensors = {}

    def put(name, shape, std):
        tensors[name] = (rng.standard_normal(shape, dtype=np.float32) * std).astype(np.float16)

    put("model.embed_tokens.weight", (VOCAB, HIDDEN), 0.02)
    for i in range(LAYERS):
        p = f"model.layers.{i}."
        grow = 1 + 0.04 * i
        put(p + "self_attn.q_proj.weight", (HIDDEN, HIDDEN), 0.020 * grow)
        put(p + "self_attn.k_proj.weight", (KV, HIDDEN), 0.022 * grow)
        put(p + "self_attn.v_proj.weight", (KV, HIDDEN), 0.015 * grow)
        put(p + "self_attn.o_proj.weight", (HIDDEN, HIDDEN), 0.012 * grow)
        put(p + "mlp.gate_proj.weight", (INTER, HIDDEN), 0.018 * grow)
        put(p + "mlp.up_proj.weight", (INTER, HIDDEN), 0.016 * grow)
        put(p + "mlp.down_proj.weight", (HIDDEN, INTER), 0.011 * grow * (40 if i == 7 else 1))
        tensors[p + "input_layernorm.weight"] = (1 + 0.05 * rng.standard_normal(HIDDEN)).astype(np.float16)
        tensors[p + "post_attention_layernorm.weight"] = (1 + 0.05 * rng.standard_normal(HIDDEN)).astype(np.float16)
    tensors["model.norm.weight"] = (1 + 0.05 * rng.standard_normal(HIDDEN)).astype(np.float16)
    put("lm_head.weight", (VOCAB, HIDDEN), 0.02)

    header = {"__metadata__": {"format": "pt", "total_parameters": str(sum(t.size for t in tensors.values()))}}
    offset = 0
    for name in sorted(tensors):
        t = tensors[name]
        header[name] = {"dtype": "F16", "shape": list(t.shape), "data_offsets": [offset, offset + t.nbytes]}
        offset += t.nbytes
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(out, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for name in sorted(tensors):
            f.write(tensors[name].tobytes())
    config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": HIDDEN,
              "num_hidden_layers": 14, "num_attention_heads": 8, "num_key_value_heads": 2,
              "intermediate_size": INTER, "vocab_size": VOCAB, "tie_word_embeddings": False,
              "torch_dtype": "float16"}
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)


if __name__ == "__main__":
    main()
