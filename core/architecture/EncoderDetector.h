#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <vector>

namespace ts {

// Encoders and encoder-decoders of the transformers library: BERT and RoBERTa
// (modeling_bert.py, modeling_roberta.py: `encoder.layer.N.attention.self.query`) and T5
// (modeling_t5.py: `encoder.block.N.layer.0.SelfAttention.q`, the relative attention bias of
// block 0 giving the heads), alone or as a pipeline's text encoder (T5-XXL in SD3 and Flux).
class EncoderDetector {
public:
    static std::vector<ArchitectureComponent> detect(const NameShapes& names);
};

} // namespace ts
