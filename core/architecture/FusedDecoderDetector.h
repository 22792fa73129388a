#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <optional>

namespace ts {

// Decoders whose attention projects q, k and v in one matrix, so the heads cannot be read from
// the shapes: GPT-2 (modeling_gpt2.py: Conv1D weights stored [in, out], `h.N.attn.c_attn`),
// BLOOM (modeling_bloom.py: `h.N.self_attention.query_key_value`) and GPT-NeoX/Pythia
// (modeling_gpt_neox.py: `gpt_neox.layers.N.attention.query_key_value`).
class FusedDecoderDetector {
public:
    static std::optional<ArchitectureComponent> detect(const NameShapes& names);
};

} // namespace ts
