#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <optional>

namespace ts {

// Diffusion transformers: Flux in Black Forest Labs' layout (flux/model.py: double_blocks,
// single_blocks) and diffusers' (transformer_flux.py: transformer_blocks and
// single_transformer_blocks), and SD3's MMDiT in diffusers' layout (transformer_sd3.py) and the
// original one (`joint_blocks.N.x_block`). QK-norm scales, where a model has them, give the
// head dimension and so the heads.
class DiffusionTransformerDetector {
public:
    static std::optional<ArchitectureComponent> detect(const NameShapes& names);
};

} // namespace ts
