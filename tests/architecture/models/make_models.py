#!/usr/bin/python3
"""Writes header-only models of well-known checkpoints: their tensor names, dtypes and shapes as
published, laid out as the reference writer lays files out, with the data left sparse (the file
is extended to its full size without writing a byte of it). Nothing is downloaded: every shape
follows from the model's published config.json and the library's module layout, and SOURCES.md
(beside this script) says where each one comes from and which published parameter count the
tests pin for it.

    python3 make_models.py OUTDIR            # every model
    python3 make_models.py OUTDIR NAME...    # some of them (the folder names below)

Standard library only, so the tests can run it wherever python3 is.
"""
import json
import math
import os
import struct
import sys

# The reference's dtype table in declaration order (core/format/Dtype.h); the writer lays
# tensors out by dtype descending in this order, then by name.
DTYPES = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
          "F8_E4M3FNUZ", "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64",
          "F64", "I64", "U64"]
BITS = {"BOOL": 8, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6, "U8": 8, "I8": 8, "F8_E5M2": 8,
        "F8_E4M3": 8, "F8_E8M0": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8, "I16": 16, "U16": 16,
        "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32, "C64": 64, "F64": 64, "I64": 64,
        "U64": 64}


def nbytes(dtype, shape):
    return (math.prod(shape) * BITS[dtype] + 7) // 8


def write_file(path, tensors, metadata=None, values=None):
    """tensors: [(name, dtype, shape)]; values: {name: bytes} for the few tensors whose contents
    matter (an adapter's alpha scalars). Returns the bytes of tensor data."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    order = sorted(tensors, key=lambda t: (-DTYPES.index(t[1]), t[0].encode()))
    header = {}
    if metadata is not None:
        header["__metadata__"] = metadata
    offset = 0
    for name, dtype, shape in order:
        size = nbytes(dtype, shape)
        header[name] = {"dtype": dtype, "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.truncate(8 + len(text) + offset)  # sparse: the data is never written
        for name, data in (values or {}).items():
            begin, end = header[name]["data_offsets"]
            assert len(data) == end - begin, name
            f.seek(8 + len(text) + begin)
            f.write(data)
    return offset


def write_sharded(folder, tensors, shards, pattern, index_name, metadata=None, assign=None):
    """Splits `tensors` in order over `shards` files of about equal size, or by `assign(i)`, and
    writes the index as transformers does (metadata.total_size, weight_map sorted by name)."""
    total = sum(nbytes(d, s) for _, d, s in tensors)
    groups = [[] for _ in range(shards)]
    done = 0
    for i, t in enumerate(tensors):
        if assign:
            k = assign(t[0])
        else:
            k = min(shards - 1, done * shards // max(total, 1))
        groups[k].append(t)
        done += nbytes(t[1], t[2])
    weight_map = {}
    for k, group in enumerate(groups):
        name = pattern.format(k + 1, shards)
        write_file(os.path.join(folder, name), group, metadata)
        for t in group:
            weight_map[t[0]] = name
    index = {"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}
    with open(os.path.join(folder, index_name), "w") as f:
        json.dump(index, f, indent=2)


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(value, f, indent=2)


# --- Module layouts, in state-dict order -----------------------------------------------------

def linear(name, out_f, in_f, dtype, bias=True):
    t = [(name + ".weight", dtype, [out_f, in_f])]
    if bias:
        t.append((name + ".bias", dtype, [out_f]))
    return t


def norm(name, dim, dtype, bias=True, weight="weight", bias_name="bias"):
    t = [(name + "." + weight, dtype, [dim])]
    if bias:
        t.append((name + "." + bias_name, dtype, [dim]))
    return t


def llama(dtype, vocab, hidden, layers, heads, kv_heads, head_dim, inter, tied=False, qkv_bias=False,
          qk_norm=False, sandwich_norms=False, prefix="model.", lm_head="lm_head.weight", mlp=None, o_bias=False):
    """transformers' LlamaForCausalLM layout (modeling_llama.py), shared by Mistral, Qwen2 (q/k/v
    biases), Qwen3 (q_norm/k_norm), Gemma (tied) and Gemma2 (pre/post feed-forward norms). `mlp`
    replaces the dense MLP of layer i (MoE variants)."""
    t = [(prefix + "embed_tokens.weight", dtype, [vocab, hidden])]
    for i in range(layers):
        p = f"{prefix}layers.{i}."
        t += linear(p + "self_attn.q_proj", heads * head_dim, hidden, dtype, qkv_bias)
        t += linear(p + "self_attn.k_proj", kv_heads * head_dim, hidden, dtype, qkv_bias)
        t += linear(p + "self_attn.v_proj", kv_heads * head_dim, hidden, dtype, qkv_bias)
        t += linear(p + "self_attn.o_proj", hidden, heads * head_dim, dtype, o_bias)
        if qk_norm:
            t += [(p + "self_attn.q_norm.weight", dtype, [head_dim]),
                  (p + "self_attn.k_norm.weight", dtype, [head_dim])]
        if mlp:
            t += mlp(p)
        else:
            t += linear(p + "mlp.gate_proj", inter, hidden, dtype, False)
            t += linear(p + "mlp.up_proj", inter, hidden, dtype, False)
            t += linear(p + "mlp.down_proj", hidden, inter, dtype, False)
        t += [(p + "input_layernorm.weight", dtype, [hidden]),
              (p + "post_attention_layernorm.weight", dtype, [hidden])]
        if sandwich_norms:
            t += [(p + "pre_feedforward_layernorm.weight", dtype, [hidden]),
                  (p + "post_feedforward_layernorm.weight", dtype, [hidden])]
    t.append((prefix + "norm.weight", dtype, [hidden]))
    if not tied:
        t.append((lm_head, dtype, [vocab, hidden]))
    return t


def bert(prefix, vocab, hidden, layers, inter, positions, type_vocab, old_norm_names, dtype="F32"):
    """modeling_bert.py's BertModel; checkpoints converted from TF name LayerNorm gamma/beta."""
    w, b = ("gamma", "beta") if old_norm_names else ("weight", "bias")
    e = prefix + "embeddings."
    t = [(e + "word_embeddings.weight", dtype, [vocab, hidden]),
         (e + "position_embeddings.weight", dtype, [positions, hidden]),
         (e + "token_type_embeddings.weight", dtype, [type_vocab, hidden])]
    t += norm(e + "LayerNorm", hidden, dtype, True, w, b)
    for i in range(layers):
        p = f"{prefix}encoder.layer.{i}."
        for q in ("query", "key", "value"):
            t += linear(p + "attention.self." + q, hidden, hidden, dtype)
        t += linear(p + "attention.output.dense", hidden, hidden, dtype)
        t += norm(p + "attention.output.LayerNorm", hidden, dtype, True, w, b)
        t += linear(p + "intermediate.dense", inter, hidden, dtype)
        t += linear(p + "output.dense", hidden, inter, dtype)
        t += norm(p + "output.LayerNorm", hidden, dtype, True, w, b)
    return t


def t5(vocab, d_model, layers, heads, d_kv, d_ff, decoder=True, gated=False, dtype="F32", lm_head=False):
    """modeling_t5.py: `shared` embeddings, relative attention bias in block 0 of each stack."""
    t = [("shared.weight", dtype, [vocab, d_model])]
    inner = heads * d_kv

    def attention(p):
        return [(p + x + ".weight", dtype, [inner, d_model] if x != "o" else [d_model, inner])
                for x in ("q", "k", "v", "o")]

    def ff(p):
        if gated:
            return [(p + "DenseReluDense.wi_0.weight", dtype, [d_ff, d_model]),
                    (p + "DenseReluDense.wi_1.weight", dtype, [d_ff, d_model]),
                    (p + "DenseReluDense.wo.weight", dtype, [d_model, d_ff])]
        return [(p + "DenseReluDense.wi.weight", dtype, [d_ff, d_model]),
                (p + "DenseReluDense.wo.weight", dtype, [d_model, d_ff])]

    stacks = ["encoder"] + (["decoder"] if decoder else [])
    for stack in stacks:
        for i in range(layers):
            p = f"{stack}.block.{i}.layer."
            t += attention(p + "0.SelfAttention.")
            if i == 0:
                t.append((p + "0.SelfAttention.relative_attention_bias.weight", dtype, [32, heads]))
            t.append((p + "0.layer_norm.weight", dtype, [d_model]))
            if stack == "decoder":
                t += attention(p + "1.EncDecAttention.")
                t.append((p + "1.layer_norm.weight", dtype, [d_model]))
                t += ff(p + "2.")
                t.append((p + "2.layer_norm.weight", dtype, [d_model]))
            else:
                t += ff(p + "1.")
                t.append((p + "1.layer_norm.weight", dtype, [d_model]))
        t.append((f"{stack}.final_layer_norm.weight", dtype, [d_model]))
    if lm_head:
        t.append(("lm_head.weight", dtype, [vocab, d_model]))
    return t


def vit(hidden=768, layers=12, inter=3072, patch=16, image=224, classes=1000, dtype="F32"):
    """modeling_vit.py's ViTForImageClassification (no pooler)."""
    positions = (image // patch) ** 2 + 1
    t = [("vit.embeddings.cls_token", dtype, [1, 1, hidden]),
         ("vit.embeddings.position_embeddings", dtype, [1, positions, hidden]),
         ("vit.embeddings.patch_embeddings.projection.weight", dtype, [hidden, 3, patch, patch]),
         ("vit.embeddings.patch_embeddings.projection.bias", dtype, [hidden])]
    for i in range(layers):
        p = f"vit.encoder.layer.{i}."
        for q in ("query", "key", "value"):
            t += linear(p + "attention.attention." + q, hidden, hidden, dtype)
        t += linear(p + "attention.output.dense", hidden, hidden, dtype)
        t += linear(p + "intermediate.dense", inter, hidden, dtype)
        t += linear(p + "output.dense", hidden, inter, dtype)
        t += norm(p + "layernorm_before", hidden, dtype)
        t += norm(p + "layernorm_after", hidden, dtype)
    t += norm("vit.layernorm", hidden, dtype)
    t += linear("classifier", classes, hidden, dtype)
    return t


def clip_tower(prefix, hidden, layers, inter, dtype):
    t = []
    for i in range(layers):
        p = f"{prefix}encoder.layers.{i}."
        for q in ("q_proj", "k_proj", "v_proj", "out_proj"):
            t += linear(p + "self_attn." + q, hidden, hidden, dtype)
        t += norm(p + "layer_norm1", hidden, dtype)
        t += linear(p + "mlp.fc1", inter, hidden, dtype)
        t += linear(p + "mlp.fc2", hidden, inter, dtype)
        t += norm(p + "layer_norm2", hidden, dtype)
    return t


def clip_text(hidden=768, layers=12, inter=3072, vocab=49408, positions=77, dtype="F32", prefix="text_model.",
              position_ids=False):
    """modeling_clip.py's CLIPTextTransformer."""
    t = [(prefix + "embeddings.token_embedding.weight", dtype, [vocab, hidden]),
         (prefix + "embeddings.position_embedding.weight", dtype, [positions, hidden])]
    if position_ids:
        t.append((prefix + "embeddings.position_ids", "I64", [1, positions]))
    t += clip_tower(prefix, hidden, layers, inter, dtype)
    t += norm(prefix + "final_layer_norm", hidden, dtype)
    return t


def clip(text_hidden=512, text_layers=12, vision_hidden=768, vision_layers=12, patch=32, image=224, proj=512,
         dtype="F32"):
    """modeling_clip.py's CLIPModel: both towers, their projections and the logit scale."""
    t = clip_text(text_hidden, text_layers, text_hidden * 4, dtype=dtype)
    v = "vision_model."
    positions = (image // patch) ** 2 + 1
    t += [(v + "embeddings.class_embedding", dtype, [vision_hidden]),
          (v + "embeddings.patch_embedding.weight", dtype, [vision_hidden, 3, patch, patch]),
          (v + "embeddings.position_embedding.weight", dtype, [positions, vision_hidden])]
    t += norm(v + "pre_layrnorm", vision_hidden, dtype)  # sic: transformers' spelling
    t += clip_tower(v, vision_hidden, vision_layers, vision_hidden * 4, dtype)
    t += norm(v + "post_layernorm", vision_hidden, dtype)
    t += [("visual_projection.weight", dtype, [proj, vision_hidden]),
          ("text_projection.weight", dtype, [proj, text_hidden]),
          ("logit_scale", dtype, [])]
    return t


def gpt2(vocab=50257, positions=1024, hidden=768, layers=12, dtype="F32", prefix=""):
    """modeling_gpt2.py: Conv1D weights are [in, out]; the causal mask `attn.bias` is a buffer the
    original checkpoint carries."""
    t = [(prefix + "wte.weight", dtype, [vocab, hidden]), (prefix + "wpe.weight", dtype, [positions, hidden])]
    for i in range(layers):
        p = f"{prefix}h.{i}."
        t += norm(p + "ln_1", hidden, dtype)
        t += [(p + "attn.bias", dtype, [1, 1, positions, positions]),
              (p + "attn.c_attn.weight", dtype, [hidden, 3 * hidden]), (p + "attn.c_attn.bias", dtype, [3 * hidden]),
              (p + "attn.c_proj.weight", dtype, [hidden, hidden]), (p + "attn.c_proj.bias", dtype, [hidden])]
        t += norm(p + "ln_2", hidden, dtype)
        t += [(p + "mlp.c_fc.weight", dtype, [hidden, 4 * hidden]), (p + "mlp.c_fc.bias", dtype, [4 * hidden]),
              (p + "mlp.c_proj.weight", dtype, [4 * hidden, hidden]), (p + "mlp.c_proj.bias", dtype, [hidden])]
    t += norm(prefix + "ln_f", hidden, dtype)
    return t


def bloom(vocab, hidden, layers, dtype="BF16"):
    """modeling_bloom.py's BloomModel."""
    t = [("word_embeddings.weight", dtype, [vocab, hidden])]
    t += norm("word_embeddings_layernorm", hidden, dtype)
    for i in range(layers):
        p = f"h.{i}."
        t += norm(p + "input_layernorm", hidden, dtype)
        t += linear(p + "self_attention.query_key_value", 3 * hidden, hidden, dtype)
        t += linear(p + "self_attention.dense", hidden, hidden, dtype)
        t += norm(p + "post_attention_layernorm", hidden, dtype)
        t += linear(p + "mlp.dense_h_to_4h", 4 * hidden, hidden, dtype)
        t += linear(p + "mlp.dense_4h_to_h", hidden, 4 * hidden, dtype)
    t += norm("ln_f", hidden, dtype)
    return t


def gpt_oss(layers, experts, dtype="BF16"):
    """modeling_gpt_oss.py with the MXFP4 checkpoint layout: experts' weights as U8 `_blocks`
    (16 bytes = 32 FP4 values per block) and UE8M0 `_scales` (one per block), per-expert biases."""
    hidden, heads, kv, hd, inter, vocab = 2880, 64, 8, 64, 2880, 201088
    blocks = hidden // 32

    def mlp(p):
        return [(p + "mlp.router.weight", dtype, [experts, hidden]), (p + "mlp.router.bias", dtype, [experts]),
                (p + "mlp.experts.gate_up_proj_blocks", "U8", [experts, 2 * inter, blocks, 16]),
                (p + "mlp.experts.gate_up_proj_scales", "U8", [experts, 2 * inter, blocks]),
                (p + "mlp.experts.gate_up_proj_bias", dtype, [experts, 2 * inter]),
                (p + "mlp.experts.down_proj_blocks", "U8", [experts, hidden, inter // 32, 16]),
                (p + "mlp.experts.down_proj_scales", "U8", [experts, hidden, inter // 32]),
                (p + "mlp.experts.down_proj_bias", dtype, [experts, hidden]),
                (p + "self_attn.sinks", dtype, [heads])]

    # Every attention projection has a bias (modeling_gpt_oss.py: bias=config.attention_bias).
    return llama(dtype, vocab, hidden, layers, heads, kv, hd, inter, qkv_bias=True, o_bias=True, mlp=mlp)


def mixtral_mlp(experts, hidden, inter, dtype):
    def mlp(p):
        t = [(p + "block_sparse_moe.gate.weight", dtype, [experts, hidden])]
        for e in range(experts):
            q = f"{p}block_sparse_moe.experts.{e}."
            t += [(q + "w1.weight", dtype, [inter, hidden]), (q + "w2.weight", dtype, [hidden, inter]),
                  (q + "w3.weight", dtype, [inter, hidden])]
        return t
    return mlp


def qwen_moe_mlp(experts, hidden, inter, shared_inter, dtype):
    def mlp(p):
        t = [(p + "mlp.gate.weight", dtype, [experts, hidden])]
        for e in range(experts):
            q = f"{p}mlp.experts.{e}."
            t += linear(q + "gate_proj", inter, hidden, dtype, False) + linear(q + "up_proj", inter, hidden, dtype, False)
            t += linear(q + "down_proj", hidden, inter, dtype, False)
        if shared_inter:
            q = p + "mlp.shared_expert."
            t += linear(q + "gate_proj", shared_inter, hidden, dtype, False)
            t += linear(q + "up_proj", shared_inter, hidden, dtype, False)
            t += linear(q + "down_proj", hidden, shared_inter, dtype, False)
            t.append((p + "mlp.shared_expert_gate.weight", dtype, [1, hidden]))
        return t
    return mlp


LLAMA_LINEARS = ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj",
                 "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj")


def quantize_bnb4(tensors, dtype):
    """bitsandbytes' 4-bit serialisation (transformers' Bnb4BitHfQuantizer, double quantisation on):
    each Linear weight becomes U8 [n/2, 1] packed codes with its quant state beside it."""
    out = []
    for name, d, shape in tensors:
        if name.endswith(".weight") and any(("." + m + ".") in name for m in LLAMA_LINEARS):
            n = math.prod(shape)
            blocks = n // 64
            out += [(name, "U8", [n // 2, 1]),
                    (name + ".absmax", "U8", [blocks]),
                    (name + ".nested_absmax", "F32", [blocks // 256]),
                    (name + ".nested_quant_map", "F32", [256]),
                    (name + ".quant_map", "F32", [16]),
                    (name + ".quant_state.bitsandbytes__nf4", "U8", [108])]
        else:
            out.append((name, d, shape))
    return out


def quantize_pack4(tensors, scale_dtype, group=128, actorder=False):
    """compressed-tensors' pack-quantized W4A16 layout (llm-compressor): I32 weight_packed with 8
    values per int, group scales, the original shape as I64 and, with actorder, I32 g_idx."""
    out = []
    for name, d, shape in tensors:
        if name.endswith(".weight") and any(("." + m + ".") in name for m in LLAMA_LINEARS):
            base = name[:-len("weight")]
            rows, cols = shape
            out += [(base + "weight_packed", "I32", [rows, cols // 8]),
                    (base + "weight_scale", scale_dtype, [rows, cols // group]),
                    (base + "weight_shape", "I64", [2])]
            if actorder:
                out.append((base + "weight_g_idx", "I32", [cols]))
        else:
            out.append((name, d, shape))
    return out


# --- diffusers -------------------------------------------------------------------------------

def resnet(p, cin, cout, temb, dtype):
    """diffusers' ResnetBlock2D (resnet.py); temb None for the VAE's blocks."""
    t = norm(p + "norm1", cin, dtype) + [(p + "conv1.weight", dtype, [cout, cin, 3, 3]), (p + "conv1.bias", dtype, [cout])]
    if temb:
        t += linear(p + "time_emb_proj", cout, temb, dtype)
    t += norm(p + "norm2", cout, dtype) + [(p + "conv2.weight", dtype, [cout, cout, 3, 3]), (p + "conv2.bias", dtype, [cout])]
    if cin != cout:
        t += [(p + "conv_shortcut.weight", dtype, [cout, cin, 1, 1]), (p + "conv_shortcut.bias", dtype, [cout])]
    return t


def transformer2d(p, c, depth, cross, linear_proj, dtype):
    """diffusers' Transformer2DModel with BasicTransformerBlocks (attention.py): self-attention,
    cross-attention to the text encoder's states, GEGLU feed-forward."""
    t = norm(p + "norm", c, dtype)
    proj = (lambda n: linear(p + n, c, c, dtype)) if linear_proj else \
        (lambda n: [(p + n + ".weight", dtype, [c, c, 1, 1]), (p + n + ".bias", dtype, [c])])
    t += proj("proj_in")
    for k in range(depth):
        b = f"{p}transformer_blocks.{k}."
        t += norm(b + "norm1", c, dtype)
        t += [(b + "attn1.to_q.weight", dtype, [c, c]), (b + "attn1.to_k.weight", dtype, [c, c]),
              (b + "attn1.to_v.weight", dtype, [c, c])] + linear(b + "attn1.to_out.0", c, c, dtype)
        t += norm(b + "norm2", c, dtype)
        t += [(b + "attn2.to_q.weight", dtype, [c, c]), (b + "attn2.to_k.weight", dtype, [c, cross]),
              (b + "attn2.to_v.weight", dtype, [c, cross])] + linear(b + "attn2.to_out.0", c, c, dtype)
        t += norm(b + "norm3", c, dtype)
        t += linear(b + "ff.net.0.proj", 8 * c, c, dtype) + linear(b + "ff.net.2", c, 4 * c, dtype)
    t += proj("proj_out")
    return t


def unet(block_out, attn_blocks, depths, cross, layers=2, linear_proj=False, add_embedding=None, in_ch=4,
         dtype="F32"):
    """diffusers' UNet2DConditionModel (unet_2d_condition.py and unet_2d_blocks.py). `attn_blocks[i]`:
    down block i has cross-attention; `depths[i]`: its transformer depth (the mid block takes the last)."""
    temb = 4 * block_out[0]
    t = [("conv_in.weight", dtype, [block_out[0], in_ch, 3, 3]), ("conv_in.bias", dtype, [block_out[0]])]
    t += linear("time_embedding.linear_1", temb, block_out[0], dtype) + linear("time_embedding.linear_2", temb, temb, dtype)
    if add_embedding:
        t += linear("add_embedding.linear_1", temb, add_embedding, dtype) + linear("add_embedding.linear_2", temb, temb, dtype)
    n = len(block_out)
    out = block_out[0]
    for i in range(n):
        cin, out = out, block_out[i]
        for j in range(layers):
            t += resnet(f"down_blocks.{i}.resnets.{j}.", cin if j == 0 else out, out, temb, dtype)
            if attn_blocks[i]:
                t += transformer2d(f"down_blocks.{i}.attentions.{j}.", out, depths[i], cross, linear_proj, dtype)
        if i < n - 1:
            t += [(f"down_blocks.{i}.downsamplers.0.conv.weight", dtype, [out, out, 3, 3]),
                  (f"down_blocks.{i}.downsamplers.0.conv.bias", dtype, [out])]
    mid = block_out[-1]
    t += resnet("mid_block.resnets.0.", mid, mid, temb, dtype)
    t += transformer2d("mid_block.attentions.0.", mid, depths[-1], cross, linear_proj, dtype)
    t += resnet("mid_block.resnets.1.", mid, mid, temb, dtype)
    rev = list(reversed(block_out))
    rev_attn = list(reversed(attn_blocks))
    rev_depth = list(reversed(depths))
    out = rev[0]
    for i in range(n):
        prev, out = out, rev[i]
        skip_in = rev[min(i + 1, n - 1)]
        for j in range(layers + 1):
            skip = skip_in if j == layers else out
            res_in = prev if j == 0 else out
            t += resnet(f"up_blocks.{i}.resnets.{j}.", res_in + skip, out, temb, dtype)
            if rev_attn[i]:
                t += transformer2d(f"up_blocks.{i}.attentions.{j}.", out, rev_depth[i], cross, linear_proj, dtype)
        if i < n - 1:
            t += [(f"up_blocks.{i}.upsamplers.0.conv.weight", dtype, [out, out, 3, 3]),
                  (f"up_blocks.{i}.upsamplers.0.conv.bias", dtype, [out])]
    t += norm("conv_norm_out", block_out[0], dtype)
    t += [("conv_out.weight", dtype, [in_ch, block_out[0], 3, 3]), ("conv_out.bias", dtype, [in_ch])]
    return t


def vae(block_out=(128, 256, 512, 512), latent=4, layers=2, quant_conv=True, dtype="F32"):
    """diffusers' AutoencoderKL (autoencoder_kl.py, vae.py): encoder, decoder, (post_)quant_conv."""
    def mid(p, c):
        t = resnet(p + "resnets.0.", c, c, None, dtype)
        a = p + "attentions.0."
        t += norm(a + "group_norm", c, dtype)
        for q in ("to_q", "to_k", "to_v", "to_out.0"):
            t += linear(a + q, c, c, dtype)
        return t + resnet(p + "resnets.1.", c, c, None, dtype)

    t = [("encoder.conv_in.weight", dtype, [block_out[0], 3, 3, 3]), ("encoder.conv_in.bias", dtype, [block_out[0]])]
    out = block_out[0]
    for i, c in enumerate(block_out):
        cin, out = out, c
        for j in range(layers):
            t += resnet(f"encoder.down_blocks.{i}.resnets.{j}.", cin if j == 0 else out, out, None, dtype)
        if i < len(block_out) - 1:
            t += [(f"encoder.down_blocks.{i}.downsamplers.0.conv.weight", dtype, [out, out, 3, 3]),
                  (f"encoder.down_blocks.{i}.downsamplers.0.conv.bias", dtype, [out])]
    t += mid("encoder.mid_block.", block_out[-1])
    t += norm("encoder.conv_norm_out", block_out[-1], dtype)
    t += [("encoder.conv_out.weight", dtype, [2 * latent, block_out[-1], 3, 3]),
          ("encoder.conv_out.bias", dtype, [2 * latent])]
    if quant_conv:
        t += [("quant_conv.weight", dtype, [2 * latent, 2 * latent, 1, 1]), ("quant_conv.bias", dtype, [2 * latent]),
              ("post_quant_conv.weight", dtype, [latent, latent, 1, 1]), ("post_quant_conv.bias", dtype, [latent])]
    rev = list(reversed(block_out))
    t += [("decoder.conv_in.weight", dtype, [rev[0], latent, 3, 3]), ("decoder.conv_in.bias", dtype, [rev[0]])]
    t += mid("decoder.mid_block.", rev[0])
    out = rev[0]
    for i, c in enumerate(rev):
        cin, out = out, c
        for j in range(layers + 1):
            t += resnet(f"decoder.up_blocks.{i}.resnets.{j}.", cin if j == 0 else out, out, None, dtype)
        if i < len(rev) - 1:
            t += [(f"decoder.up_blocks.{i}.upsamplers.0.conv.weight", dtype, [out, out, 3, 3]),
                  (f"decoder.up_blocks.{i}.upsamplers.0.conv.bias", dtype, [out])]
    t += norm("decoder.conv_norm_out", block_out[0], dtype)
    t += [("decoder.conv_out.weight", dtype, [3, block_out[0], 3, 3]), ("decoder.conv_out.bias", dtype, [3])]
    return t


def ldm_vae(prefix="", ch=128, mult=(1, 2, 4, 4), latent=4, res=2, quant_conv=True, dtype="F32"):
    """The CompVis/ldm autoencoder's naming (ldm/modules/diffusionmodules/model.py: Encoder,
    Decoder), which single-file SD checkpoints (first_stage_model.) and Flux's ae.safetensors use:
    encoder.down.N.block.M, mid.block_1 / attn_1 / block_2, nin_shortcut, and the decoder's up
    levels numbered from the top (up.3 runs first)."""
    def block(p, cin, cout):
        t = norm(p + "norm1", cin, dtype) + [(p + "conv1.weight", dtype, [cout, cin, 3, 3]), (p + "conv1.bias", dtype, [cout])]
        t += norm(p + "norm2", cout, dtype) + [(p + "conv2.weight", dtype, [cout, cout, 3, 3]), (p + "conv2.bias", dtype, [cout])]
        if cin != cout:
            t += [(p + "nin_shortcut.weight", dtype, [cout, cin, 1, 1]), (p + "nin_shortcut.bias", dtype, [cout])]
        return t

    def mid(p, c):
        t = block(p + "block_1.", c, c) + norm(p + "attn_1.norm", c, dtype)
        for q in ("q", "k", "v", "proj_out"):
            t += [(p + "attn_1." + q + ".weight", dtype, [c, c, 1, 1]), (p + "attn_1." + q + ".bias", dtype, [c])]
        return t + block(p + "block_2.", c, c)

    p = prefix
    t = [(p + "encoder.conv_in.weight", dtype, [ch, 3, 3, 3]), (p + "encoder.conv_in.bias", dtype, [ch])]
    cin = ch
    for i, m in enumerate(mult):
        for j in range(res):
            t += block(f"{p}encoder.down.{i}.block.{j}.", cin, ch * m)
            cin = ch * m
        if i < len(mult) - 1:
            t += [(f"{p}encoder.down.{i}.downsample.conv.weight", dtype, [cin, cin, 3, 3]),
                  (f"{p}encoder.down.{i}.downsample.conv.bias", dtype, [cin])]
    t += mid(p + "encoder.mid.", cin) + norm(p + "encoder.norm_out", cin, dtype)
    t += [(p + "encoder.conv_out.weight", dtype, [2 * latent, cin, 3, 3]), (p + "encoder.conv_out.bias", dtype, [2 * latent])]
    if quant_conv:
        t += [(p + "quant_conv.weight", dtype, [2 * latent, 2 * latent, 1, 1]), (p + "quant_conv.bias", dtype, [2 * latent]),
              (p + "post_quant_conv.weight", dtype, [latent, latent, 1, 1]), (p + "post_quant_conv.bias", dtype, [latent])]
    top = ch * mult[-1]
    t += [(p + "decoder.conv_in.weight", dtype, [top, latent, 3, 3]), (p + "decoder.conv_in.bias", dtype, [top])]
    t += mid(p + "decoder.mid.", top)
    cin = top
    for i in reversed(range(len(mult))):
        for j in range(res + 1):
            t += block(f"{p}decoder.up.{i}.block.{j}.", cin, ch * mult[i])
            cin = ch * mult[i]
        if i > 0:
            t += [(f"{p}decoder.up.{i}.upsample.conv.weight", dtype, [cin, cin, 3, 3]),
                  (f"{p}decoder.up.{i}.upsample.conv.bias", dtype, [cin])]
    t += norm(p + "decoder.norm_out", ch, dtype)
    t += [(p + "decoder.conv_out.weight", dtype, [3, ch, 3, 3]), (p + "decoder.conv_out.bias", dtype, [3])]
    return t


def flux_bfl(double=19, single=38, hidden=3072, context=4096, vec=768, head_dim=128, guidance=True, dtype="BF16",
             prefix=""):
    """Black Forest Labs' flux/model.py layout (flux1-dev.safetensors): double-stream and
    single-stream blocks, QK-norm scales per head dimension."""
    p0 = prefix
    mlp = 4 * hidden

    def embedder(p, cin):
        return linear(p + "in_layer", hidden, cin, dtype) + linear(p + "out_layer", hidden, hidden, dtype)

    t = linear(p0 + "img_in", hidden, 64, dtype) + embedder(p0 + "time_in.", 256)
    if guidance:
        t += embedder(p0 + "guidance_in.", 256)
    t += embedder(p0 + "vector_in.", vec) + linear(p0 + "txt_in", hidden, context, dtype)
    for i in range(double):
        for s in ("img", "txt"):
            p = f"{p0}double_blocks.{i}.{s}_"
            t += linear(p + "mod.lin", 6 * hidden, hidden, dtype)
            t += linear(p + "attn.qkv", 3 * hidden, hidden, dtype)
            t += [(p + "attn.norm.query_norm.scale", dtype, [head_dim]), (p + "attn.norm.key_norm.scale", dtype, [head_dim])]
            t += linear(p + "attn.proj", hidden, hidden, dtype)
            t += linear(p + "mlp.0", mlp, hidden, dtype) + linear(p + "mlp.2", hidden, mlp, dtype)
    for i in range(single):
        p = f"{p0}single_blocks.{i}."
        t += linear(p + "linear1", 3 * hidden + mlp, hidden, dtype) + linear(p + "linear2", hidden, hidden + mlp, dtype)
        t += [(p + "norm.query_norm.scale", dtype, [head_dim]), (p + "norm.key_norm.scale", dtype, [head_dim])]
        t += linear(p + "modulation.lin", 3 * hidden, hidden, dtype)
    t += linear(p0 + "final_layer.linear", 64, hidden, dtype)
    t += linear(p0 + "final_layer.adaLN_modulation.1", 2 * hidden, hidden, dtype)
    return t


def flux_diffusers(double=19, single=38, hidden=3072, context=4096, vec=768, head_dim=128, guidance=True,
                   dtype="BF16"):
    """diffusers' FluxTransformer2DModel (transformer_flux.py): the same weights as flux_bfl with
    the fused q/k/v split and renamed."""
    mlp = 4 * hidden
    t = linear("x_embedder", hidden, 64, dtype)
    t += linear("time_text_embed.timestep_embedder.linear_1", hidden, 256, dtype)
    t += linear("time_text_embed.timestep_embedder.linear_2", hidden, hidden, dtype)
    if guidance:
        t += linear("time_text_embed.guidance_embedder.linear_1", hidden, 256, dtype)
        t += linear("time_text_embed.guidance_embedder.linear_2", hidden, hidden, dtype)
    t += linear("time_text_embed.text_embedder.linear_1", hidden, vec, dtype)
    t += linear("time_text_embed.text_embedder.linear_2", hidden, hidden, dtype)
    t += linear("context_embedder", hidden, context, dtype)
    for i in range(double):
        p = f"transformer_blocks.{i}."
        t += linear(p + "norm1.linear", 6 * hidden, hidden, dtype) + linear(p + "norm1_context.linear", 6 * hidden, hidden, dtype)
        for q in ("to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj"):
            t += linear(p + "attn." + q, hidden, hidden, dtype)
        for q in ("norm_q", "norm_k", "norm_added_q", "norm_added_k"):
            t.append((p + "attn." + q + ".weight", dtype, [head_dim]))
        t += linear(p + "attn.to_out.0", hidden, hidden, dtype) + linear(p + "attn.to_add_out", hidden, hidden, dtype)
        t += linear(p + "ff.net.0.proj", mlp, hidden, dtype) + linear(p + "ff.net.2", hidden, mlp, dtype)
        t += linear(p + "ff_context.net.0.proj", mlp, hidden, dtype) + linear(p + "ff_context.net.2", hidden, mlp, dtype)
    for i in range(single):
        p = f"single_transformer_blocks.{i}."
        t += linear(p + "norm.linear", 3 * hidden, hidden, dtype) + linear(p + "proj_mlp", mlp, hidden, dtype)
        t += linear(p + "proj_out", hidden, hidden + mlp, dtype)
        for q in ("to_q", "to_k", "to_v"):
            t += linear(p + "attn." + q, hidden, hidden, dtype)
        t += [(p + "attn.norm_q.weight", dtype, [head_dim]), (p + "attn.norm_k.weight", dtype, [head_dim])]
    t += linear("norm_out.linear", 2 * hidden, hidden, dtype) + linear("proj_out", 64, hidden, dtype)
    return t


def sd3(layers=24, hidden=1536, context=4096, pooled=2048, patch=2, in_ch=16, pos=192, qk_norm=False, dtype="F16"):
    """diffusers' SD3Transformer2DModel (transformer_sd3.py): joint blocks, the last one updating
    only the image stream (context_pre_only)."""
    head_dim = 64
    t = [("pos_embed.pos_embed", dtype, [1, pos * pos, hidden]),
         ("pos_embed.proj.weight", dtype, [hidden, in_ch, patch, patch]), ("pos_embed.proj.bias", dtype, [hidden])]
    t += linear("time_text_embed.timestep_embedder.linear_1", hidden, 256, dtype)
    t += linear("time_text_embed.timestep_embedder.linear_2", hidden, hidden, dtype)
    t += linear("time_text_embed.text_embedder.linear_1", hidden, pooled, dtype)
    t += linear("time_text_embed.text_embedder.linear_2", hidden, hidden, dtype)
    t += linear("context_embedder", hidden, context, dtype)
    for i in range(layers):
        p = f"transformer_blocks.{i}."
        last = i == layers - 1
        t += linear(p + "norm1.linear", 6 * hidden, hidden, dtype)
        t += linear(p + "norm1_context.linear", (2 if last else 6) * hidden, hidden, dtype)
        for q in ("to_q", "to_k", "to_v", "add_q_proj", "add_k_proj", "add_v_proj"):
            t += linear(p + "attn." + q, hidden, hidden, dtype)
        if qk_norm:
            for q in ("norm_q", "norm_k", "norm_added_q", "norm_added_k"):
                t.append((p + "attn." + q + ".weight", dtype, [head_dim]))
        t += linear(p + "attn.to_out.0", hidden, hidden, dtype)
        if not last:
            t += linear(p + "attn.to_add_out", hidden, hidden, dtype)
            t += linear(p + "ff_context.net.0.proj", 4 * hidden, hidden, dtype)
            t += linear(p + "ff_context.net.2", hidden, 4 * hidden, dtype)
        t += linear(p + "ff.net.0.proj", 4 * hidden, hidden, dtype) + linear(p + "ff.net.2", hidden, 4 * hidden, dtype)
    t += linear("norm_out.linear", 2 * hidden, hidden, dtype)
    t += linear("proj_out", patch * patch * in_ch, hidden, dtype)
    return t


def ldm_sd15(dtype="F16"):
    """The original CompVis single-file layout (v1-5-pruned-emaonly.safetensors): the UNet under
    model.diffusion_model, the VAE under first_stage_model, CLIP ViT-L/14's text encoder under
    cond_stage_model.transformer. Shapes as in the diffusers layouts; names as ldm writes them."""
    t = []
    m = "model.diffusion_model."
    t += [(m + "input_blocks.0.0.weight", dtype, [320, 4, 3, 3]), (m + "input_blocks.0.0.bias", dtype, [320])]
    t += linear(m + "time_embed.0", 1280, 320, dtype) + linear(m + "time_embed.2", 1280, 1280, dtype)

    def res(p, cin, cout):
        r = norm(p + "in_layers.0", cin, dtype) + [(p + "in_layers.2.weight", dtype, [cout, cin, 3, 3]),
                                                  (p + "in_layers.2.bias", dtype, [cout])]
        r += linear(p + "emb_layers.1", cout, 1280, dtype)
        r += norm(p + "out_layers.0", cout, dtype) + [(p + "out_layers.3.weight", dtype, [cout, cout, 3, 3]),
                                                     (p + "out_layers.3.bias", dtype, [cout])]
        if cin != cout:
            r += [(p + "skip_connection.weight", dtype, [cout, cin, 1, 1]), (p + "skip_connection.bias", dtype, [cout])]
        return r

    def st(p, c):
        return [(x[0].replace(p + "transformer_blocks", p + "transformer_blocks"), x[1], x[2])
                for x in transformer2d(p, c, 1, 768, False, dtype)]

    chans = [320, 320, 320, 320, 640, 640, 640, 1280, 1280, 1280, 1280, 1280]
    block = 1
    cin = 320
    for level, c in enumerate([320, 640, 1280, 1280]):
        for j in range(2):
            t += res(f"{m}input_blocks.{block}.0.", cin, c)
            if level < 3:
                t += st(f"{m}input_blocks.{block}.1.", c)
            cin = c
            block += 1
        if level < 3:
            t += [(f"{m}input_blocks.{block}.0.op.weight", dtype, [c, c, 3, 3]), (f"{m}input_blocks.{block}.0.op.bias", dtype, [c])]
            block += 1
    t += res(m + "middle_block.0.", 1280, 1280) + st(m + "middle_block.1.", 1280) + res(m + "middle_block.2.", 1280, 1280)
    out = 0
    for level, c in enumerate([1280, 1280, 640, 320]):
        for j in range(3):
            skip = chans.pop()
            t += res(f"{m}output_blocks.{out}.0.", cin + skip, c)
            cin = c
            if level > 0:
                t += st(f"{m}output_blocks.{out}.1.", c)
            if level < 3 and j == 2:
                k = 2 if level > 0 else 1
                t += [(f"{m}output_blocks.{out}.{k}.conv.weight", dtype, [c, c, 3, 3]),
                      (f"{m}output_blocks.{out}.{k}.conv.bias", dtype, [c])]
            out += 1
    t += norm(m + "out.0", 320, dtype) + [(m + "out.2.weight", dtype, [4, 320, 3, 3]), (m + "out.2.bias", dtype, [4])]
    t += ldm_vae("first_stage_model.", dtype=dtype)
    t += [("cond_stage_model.transformer." + n, d, s) for n, d, s in clip_text(dtype=dtype)]
    return t


# --- adapters --------------------------------------------------------------------------------

def kohya_lora_sd15(rank=16, alpha=8.0, dtype="F16"):
    """kohya-ss sd-scripts' networks/lora.py naming: lora_unet_* for the UNet's attention
    projections (diffusers module paths with '.' as '_'), lora_te_* for the text encoder, each
    with lora_down [r, in], lora_up [out, r] and a scalar alpha."""
    t = []
    for level, c in enumerate([320, 640, 1280]):
        for j in range(2):
            base = f"lora_unet_down_blocks_{level}_attentions_{j}_transformer_blocks_0_"
            for attn, cross in (("attn1", c), ("attn2", 768)):
                for q, cin in (("to_q", c), ("to_k", cross), ("to_v", cross), ("to_out_0", c)):
                    n = base + attn + "_" + q
                    t += [(n + ".lora_down.weight", dtype, [rank, cin]), (n + ".lora_up.weight", dtype, [c, rank]),
                          (n + ".alpha", dtype, [])]
    for i in range(12):
        for q in ("q_proj", "k_proj", "v_proj", "out_proj"):
            n = f"lora_te_text_model_encoder_layers_{i}_self_attn_{q}"
            t += [(n + ".lora_down.weight", dtype, [rank, 768]), (n + ".lora_up.weight", dtype, [768, rank]),
                  (n + ".alpha", dtype, [])]
    metadata = {"ss_network_module": "networks.lora", "ss_network_dim": str(rank), "ss_network_alpha": str(alpha),
                "ss_base_model_version": "sd_v1", "ss_output_name": "example_lora",
                "ss_training_started_at": "1700000000.5", "ss_resolution": "(512, 512)",
                "ss_learning_rate": "0.0001", "ss_num_epochs": "10", "ss_mixed_precision": "fp16",
                "modelspec.sai_model_spec": "1.0.0", "modelspec.architecture": "stable-diffusion-v1/lora",
                "modelspec.implementation": "diffusers", "modelspec.title": "example_lora",
                "modelspec.date": "2023-11-14T22:13:20", "modelspec.resolution": "512x512"}
    return t, metadata


def peft_lora_llama(layers=32, hidden=4096, kv=1024, rank=8, dtype="F32"):
    """PEFT's saved adapter (adapter_model.safetensors): base_model.model.<module>.lora_A/lora_B."""
    t = []
    for i in range(layers):
        for q, out in (("q_proj", hidden), ("v_proj", kv)):
            n = f"base_model.model.model.layers.{i}.self_attn.{q}"
            t += [(n + ".lora_A.weight", dtype, [rank, hidden]), (n + ".lora_B.weight", dtype, [out, rank])]
    return t


# --- The models ------------------------------------------------------------------------------

def llama_config(arch, model_type, vocab, hidden, layers, heads, kv, inter, **extra):
    c = {"architectures": [arch], "model_type": model_type, "vocab_size": vocab, "hidden_size": hidden,
         "num_hidden_layers": layers, "num_attention_heads": heads, "num_key_value_heads": kv,
         "intermediate_size": inter, "torch_dtype": "bfloat16"}
    c.update(extra)
    return c


def m_llama31_8b(out):
    t = llama("BF16", 128256, 4096, 32, 32, 8, 128, 14336)
    write_sharded(out, t, 4, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("LlamaForCausalLM", "llama", 128256, 4096, 32, 32, 8,
                                                              14336, max_position_embeddings=131072, head_dim=128,
                                                              tie_word_embeddings=False))


def m_mistral_7b(out):
    t = llama("BF16", 32000, 4096, 32, 32, 8, 128, 14336)
    write_sharded(out, t, 2, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("MistralForCausalLM", "mistral", 32000, 4096, 32, 32, 8,
                                                              14336, sliding_window=4096, tie_word_embeddings=False))


def m_qwen25_7b(out):
    t = llama("BF16", 152064, 3584, 28, 28, 4, 128, 18944, qkv_bias=True)
    write_sharded(out, t, 4, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("Qwen2ForCausalLM", "qwen2", 152064, 3584, 28, 28, 4,
                                                              18944, tie_word_embeddings=False))


def m_qwen25_05b(out):
    t = llama("BF16", 151936, 896, 24, 14, 2, 64, 4864, tied=True, qkv_bias=True)
    write_file(os.path.join(out, "model.safetensors"), t, {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("Qwen2ForCausalLM", "qwen2", 151936, 896, 24, 14, 2,
                                                              4864, tie_word_embeddings=True))


def m_qwen3_8b(out):
    t = llama("BF16", 151936, 4096, 36, 32, 8, 128, 12288, qk_norm=True)
    write_sharded(out, t, 5, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("Qwen3ForCausalLM", "qwen3", 151936, 4096, 36, 32, 8,
                                                              12288, head_dim=128, tie_word_embeddings=False))


def m_gemma_7b(out):
    t = llama("BF16", 256000, 3072, 28, 16, 16, 256, 24576, tied=True)
    write_sharded(out, t, 4, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("GemmaForCausalLM", "gemma", 256000, 3072, 28, 16, 16,
                                                              24576, head_dim=256))


def m_mixtral_8x7b(out):
    t = llama("BF16", 32000, 4096, 32, 32, 8, 128, 14336, mlp=mixtral_mlp(8, 4096, 14336, "BF16"))
    write_sharded(out, t, 19, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("MixtralForCausalLM", "mixtral", 32000, 4096, 32, 32, 8,
                                                              14336, num_local_experts=8, num_experts_per_tok=2,
                                                              tie_word_embeddings=False))


def m_qwen15_moe(out):
    t = llama("BF16", 151936, 2048, 24, 16, 16, 128, 5632, qkv_bias=True,
              mlp=qwen_moe_mlp(60, 2048, 1408, 5632, "BF16"))
    write_sharded(out, t, 8, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config("Qwen2MoeForCausalLM", "qwen2_moe", 151936, 2048, 24, 16,
                                                              16, 5632, num_experts=60, moe_intermediate_size=1408,
                                                              shared_expert_intermediate_size=5632, num_experts_per_tok=4))


def m_gpt_oss_20b(out):
    t = gpt_oss(24, 32)
    write_sharded(out, t, 3, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json")
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 24,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880,
        "num_local_experts": 32, "experts_per_token": 4, "vocab_size": 201088, "tie_word_embeddings": False,
        "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                           "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"}})


def m_gpt_oss_120b(out):
    t = gpt_oss(36, 128)
    write_sharded(out, t, 15, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json")
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880, "num_hidden_layers": 36,
        "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "intermediate_size": 2880,
        "num_local_experts": 128, "experts_per_token": 4, "vocab_size": 201088, "tie_word_embeddings": False,
        "quantization_config": {"modules_to_not_convert": ["model.layers.*.self_attn", "model.layers.*.mlp.router",
                                                           "model.embed_tokens", "lm_head"], "quant_method": "mxfp4"}})


def m_llama31_8b_bnb4(out):
    t = quantize_bnb4(llama("BF16", 128256, 4096, 32, 32, 8, 128, 14336), "BF16")
    write_file(os.path.join(out, "model.safetensors"), t, {"format": "pt"})
    write_json(os.path.join(out, "config.json"), llama_config(
        "LlamaForCausalLM", "llama", 128256, 4096, 32, 32, 8, 14336,
        quantization_config={"_load_in_4bit": True, "_load_in_8bit": False, "bnb_4bit_compute_dtype": "bfloat16",
                             "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": True, "load_in_4bit": True,
                             "load_in_8bit": False, "llm_int8_skip_modules": None, "quant_method": "bitsandbytes"}))


def m_llama33_70b_w4a16(out):
    t = quantize_pack4(llama("BF16", 128256, 8192, 80, 64, 8, 128, 28672), "BF16", actorder=True)
    write_sharded(out, t, 8, "model-{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json")
    write_json(os.path.join(out, "config.json"), llama_config(
        "LlamaForCausalLM", "llama", 128256, 8192, 80, 64, 8, 28672,
        quantization_config={"quant_method": "compressed-tensors", "format": "pack-quantized",
                             "config_groups": {"group_0": {"targets": ["Linear"], "format": "pack-quantized",
                                                           "weights": {"num_bits": 4, "group_size": 128, "type": "int",
                                                                       "symmetric": True, "strategy": "group",
                                                                       "actorder": "group"}}},
                             "ignore": ["lm_head"]}))


def m_bloom(out):
    t = bloom(250880, 14336, 70)

    def shard_of(name):  # as bigscience/bloom: embeddings, then one block per shard, then ln_f
        if name.startswith("h."):
            return int(name.split(".")[1]) + 1
        return 71 if name.startswith("ln_f") else 0

    write_sharded(out, t, 72, "model_{:05d}-of-{:05d}.safetensors", "model.safetensors.index.json", assign=shard_of)
    write_json(os.path.join(out, "config.json"), {"architectures": ["BloomForCausalLM"], "model_type": "bloom",
                                                  "n_layer": 70, "hidden_size": 14336, "n_head": 112,
                                                  "vocab_size": 250880})


def m_bert_base(out):
    t = bert("bert.", 30522, 768, 12, 3072, 512, 2, True)
    t += linear("bert.pooler.dense", 768, 768, "F32")
    t += [("cls.predictions.bias", "F32", [30522])] + linear("cls.predictions.transform.dense", 768, 768, "F32")
    t += norm("cls.predictions.transform.LayerNorm", 768, "F32", True, "gamma", "beta")
    t += linear("cls.seq_relationship", 2, 768, "F32")
    write_file(os.path.join(out, "model.safetensors"), t, {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["BertForMaskedLM"], "model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12,
        "num_attention_heads": 12, "intermediate_size": 3072, "max_position_embeddings": 512, "type_vocab_size": 2,
        "vocab_size": 30522})


def m_roberta_base(out):
    t = bert("roberta.", 50265, 768, 12, 3072, 514, 1, False)
    t.insert(3, ("roberta.embeddings.position_ids", "I64", [1, 514]))
    t += linear("lm_head.dense", 768, 768, "F32") + norm("lm_head.layer_norm", 768, "F32")
    t.append(("lm_head.bias", "F32", [50265]))
    write_file(os.path.join(out, "model.safetensors"), t, {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["RobertaForMaskedLM"], "model_type": "roberta", "hidden_size": 768, "num_hidden_layers": 12,
        "num_attention_heads": 12, "intermediate_size": 3072, "max_position_embeddings": 514, "type_vocab_size": 1,
        "vocab_size": 50265})


def m_t5_small(out):
    write_file(os.path.join(out, "model.safetensors"), t5(32128, 512, 6, 8, 64, 2048), {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["T5ForConditionalGeneration"], "model_type": "t5", "d_model": 512, "d_ff": 2048,
        "d_kv": 64, "num_heads": 8, "num_layers": 6, "vocab_size": 32128})


def m_vit_base(out):
    write_file(os.path.join(out, "model.safetensors"), vit(), {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["ViTForImageClassification"], "model_type": "vit", "hidden_size": 768,
        "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072, "patch_size": 16,
        "image_size": 224})


def m_gpt2(out):
    write_file(os.path.join(out, "model.safetensors"), gpt2(), {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["GPT2LMHeadModel"], "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
        "n_layer": 12, "n_positions": 1024, "vocab_size": 50257})


def m_clip_vit_b32(out):
    write_file(os.path.join(out, "model.safetensors"), clip(), {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "architectures": ["CLIPModel"], "model_type": "clip", "projection_dim": 512,
        "text_config": {"hidden_size": 512, "num_hidden_layers": 12, "intermediate_size": 2048, "vocab_size": 49408,
                        "max_position_embeddings": 77, "num_attention_heads": 8},
        "vision_config": {"hidden_size": 768, "num_hidden_layers": 12, "intermediate_size": 3072, "patch_size": 32,
                          "image_size": 224, "num_attention_heads": 12}})


def m_sd_v14(out):
    """A diffusers pipeline folder: the Hub counts unet/ for it."""
    write_json(os.path.join(out, "model_index.json"), {
        "_class_name": "StableDiffusionPipeline", "_diffusers_version": "0.2.2",
        "text_encoder": ["transformers", "CLIPTextModel"], "unet": ["diffusers", "UNet2DConditionModel"],
        "vae": ["diffusers", "AutoencoderKL"]})
    write_file(os.path.join(out, "unet", "diffusion_pytorch_model.safetensors"),
               unet([320, 640, 1280, 1280], [True, True, True, False], [1, 1, 1, 1], 768), {"format": "pt"})
    write_json(os.path.join(out, "unet", "config.json"), {
        "_class_name": "UNet2DConditionModel", "block_out_channels": [320, 640, 1280, 1280], "layers_per_block": 2,
        "cross_attention_dim": 768, "in_channels": 4, "out_channels": 4, "attention_head_dim": 8})
    write_file(os.path.join(out, "vae", "diffusion_pytorch_model.safetensors"), vae(), {"format": "pt"})
    write_json(os.path.join(out, "vae", "config.json"), {
        "_class_name": "AutoencoderKL", "block_out_channels": [128, 256, 512, 512], "latent_channels": 4,
        "layers_per_block": 2})
    write_file(os.path.join(out, "text_encoder", "model.safetensors"), clip_text(position_ids=True), {"format": "pt"})
    write_json(os.path.join(out, "text_encoder", "config.json"), {
        "architectures": ["CLIPTextModel"], "model_type": "clip_text_model", "hidden_size": 768,
        "num_hidden_layers": 12, "intermediate_size": 3072, "vocab_size": 49408, "max_position_embeddings": 77})


def m_sdxl_unet(out):
    write_json(os.path.join(out, "model_index.json"), {"_class_name": "StableDiffusionXLPipeline",
                                                       "unet": ["diffusers", "UNet2DConditionModel"]})
    write_file(os.path.join(out, "unet", "diffusion_pytorch_model.safetensors"),
               unet([320, 640, 1280], [False, True, True], [1, 2, 10], 2048, linear_proj=True, add_embedding=2816),
               {"format": "pt"})
    write_json(os.path.join(out, "unet", "config.json"), {
        "_class_name": "UNet2DConditionModel", "block_out_channels": [320, 640, 1280], "layers_per_block": 2,
        "cross_attention_dim": 2048, "in_channels": 4, "out_channels": 4, "transformer_layers_per_block": [1, 2, 10]})


def m_flux_dev(out):
    """FLUX.1-dev as on the Hub: the BFL single file and the VAE at the root, the diffusers
    transformer (3 shards) in transformer/; the Hub counts transformer/."""
    write_json(os.path.join(out, "model_index.json"), {"_class_name": "FluxPipeline",
                                                       "transformer": ["diffusers", "FluxTransformer2DModel"]})
    write_file(os.path.join(out, "flux1-dev.safetensors"), flux_bfl())
    write_file(os.path.join(out, "ae.safetensors"), ldm_vae(latent=16, quant_conv=False))
    write_sharded(os.path.join(out, "transformer"), flux_diffusers(), 3,
                  "diffusion_pytorch_model-{:05d}-of-{:05d}.safetensors",
                  "diffusion_pytorch_model.safetensors.index.json")
    write_json(os.path.join(out, "transformer", "config.json"), {
        "_class_name": "FluxTransformer2DModel", "num_layers": 19, "num_single_layers": 38, "attention_head_dim": 128,
        "num_attention_heads": 24, "joint_attention_dim": 4096, "pooled_projection_dim": 768, "in_channels": 64,
        "guidance_embeds": True})


def m_sd3_medium(out):
    write_file(os.path.join(out, "diffusion_pytorch_model.safetensors"), sd3(), {"format": "pt"})
    write_json(os.path.join(out, "config.json"), {
        "_class_name": "SD3Transformer2DModel", "num_layers": 24, "attention_head_dim": 64, "num_attention_heads": 24,
        "joint_attention_dim": 4096, "pooled_projection_dim": 2048, "in_channels": 16, "patch_size": 2})


def m_sd15_single(out):
    write_file(os.path.join(out, "v1-5-pruned-emaonly.safetensors"), ldm_sd15())


def m_kohya_lora(out):
    t, metadata = kohya_lora_sd15()
    alpha = struct.pack("<e", 8.0)  # the alpha each module was trained with, as kohya stores it (F16)
    values = {name: alpha for name, _, _ in t if name.endswith(".alpha")}
    write_file(os.path.join(out, "example_lora.safetensors"), t, metadata, values)


def m_peft_lora(out):
    write_file(os.path.join(out, "adapter_model.safetensors"), peft_lora_llama(), {"format": "pt"})
    write_json(os.path.join(out, "adapter_config.json"), {
        "peft_type": "LORA", "base_model_name_or_path": "meta-llama/Llama-3.1-8B", "r": 8, "lora_alpha": 16,
        "target_modules": ["q_proj", "v_proj"], "task_type": "CAUSAL_LM"})


MODELS = {
    "meta-llama--Llama-3.1-8B": m_llama31_8b,
    "mistralai--Mistral-7B-v0.1": m_mistral_7b,
    "Qwen--Qwen2.5-7B": m_qwen25_7b,
    "Qwen--Qwen2.5-0.5B": m_qwen25_05b,
    "Qwen--Qwen3-8B": m_qwen3_8b,
    "google--gemma-7b": m_gemma_7b,
    "mistralai--Mixtral-8x7B-v0.1": m_mixtral_8x7b,
    "Qwen--Qwen1.5-MoE-A2.7B": m_qwen15_moe,
    "openai--gpt-oss-20b": m_gpt_oss_20b,
    "openai--gpt-oss-120b": m_gpt_oss_120b,
    "unsloth--Meta-Llama-3.1-8B-Instruct-bnb-4bit": m_llama31_8b_bnb4,
    "RedHatAI--Llama-3.3-70B-Instruct-quantized.w4a16": m_llama33_70b_w4a16,
    "bigscience--bloom": m_bloom,
    "google-bert--bert-base-uncased": m_bert_base,
    "FacebookAI--roberta-base": m_roberta_base,
    "google-t5--t5-small": m_t5_small,
    "google--vit-base-patch16-224": m_vit_base,
    "openai-community--gpt2": m_gpt2,
    "openai--clip-vit-base-patch32": m_clip_vit_b32,
    "CompVis--stable-diffusion-v1-4": m_sd_v14,
    "stabilityai--stable-diffusion-xl-base-1.0": m_sdxl_unet,
    "black-forest-labs--FLUX.1-dev": m_flux_dev,
    "stabilityai--stable-diffusion-3-medium-diffusers--transformer": m_sd3_medium,
    "stable-diffusion-v1-5--single-file": m_sd15_single,
    "kohya-lora-sd15": m_kohya_lora,
    "peft-lora-llama-3.1-8b": m_peft_lora,
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    names = sys.argv[2:] or list(MODELS)
    for name in names:
        if name not in MODELS:
            sys.exit(f"make_models.py: unknown model {name}")
        MODELS[name](os.path.join(out, name))


if __name__ == "__main__":
    main()
