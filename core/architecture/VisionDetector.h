#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <vector>

namespace ts {

// Vision transformers and CLIP: ViT (modeling_vit.py: `vit.encoder.layer.N.attention.attention`),
// CLIP's text and vision towers (modeling_clip.py: `text_model.encoder.layers.N.self_attn`,
// `vision_model...`), alone or inside a Stable Diffusion checkpoint, and OpenCLIP's text tower as
// SD 2 and SDXL store it (`model.transformer.resblocks.N.attn.in_proj_weight`).
class VisionDetector {
public:
    static std::vector<ArchitectureComponent> detect(const NameShapes& names);
};

} // namespace ts
