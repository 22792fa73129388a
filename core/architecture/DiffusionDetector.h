#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"

#include <vector>

namespace ts {

// Stable Diffusion's convolutional parts: the UNet in diffusers' layout
// (models/unets/unet_2d_condition.py: down_blocks / mid_block / up_blocks) or in the original
// CompVis/SGM one (`model.diffusion_model.input_blocks`), and the VAE in either (diffusers'
// autoencoder_kl.py `encoder.down_blocks`, ldm's `encoder.down.N.block`, which Flux's ae and
// single-file checkpoints' `first_stage_model` use). The cross-attention width tells the
// generation: 768 for SD 1.x, 1024 for SD 2.x, 2048 with the added time embedding for SDXL.
class DiffusionDetector {
public:
    static std::vector<ArchitectureComponent> detect(const NameShapes& names);
};

} // namespace ts
