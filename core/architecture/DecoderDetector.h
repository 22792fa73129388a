#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <optional>

namespace ts {

// Decoder-only language models with separate q/k/v/o projections in `layers.N.self_attn`: the
// Llama layout that Mistral, Qwen2/3 and Gemma 1-3 share, and its MoE variants (Mixtral's
// block_sparse_moe, Qwen-MoE's mlp.experts with a shared expert, DeepSeek's shared_experts with
// latent attention, gpt-oss's fused MXFP4 experts with attention sinks). Names are
// transformers' (models/llama/modeling_llama.py and the families' own modeling files).
class DecoderDetector {
public:
    static std::optional<ArchitectureComponent> detect(const NameShapes& names);
    // The Llama family's per-block tensors every block carries, for BlockChecks.
    static QStringList coreTails();
};

} // namespace ts
