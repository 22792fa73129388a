#pragma once

#include "architecture/Architecture.h"
#include "architecture/NameShapes.h"
#include "format/Metadata.h"

#include <functional>
#include <optional>

namespace ts {

// LoRA-style adapters: kohya-ss sd-scripts' files (networks/lora.py: `lora_unet_*`,
// `lora_te_*`, `lora_te1_`/`lora_te2_` for SDXL, `.lora_down` / `.lora_up` / a scalar `.alpha`
// per module; LyCORIS' LoHa `hada_w1_a` and LoKr `lokr_w1`), PEFT's adapter_model.safetensors
// (`base_model.model.<module>.lora_A` / `lora_B`, DoRA's `lora_magnitude_vector`) and diffusers'
// own (`unet.` / `transformer.` / `text_encoder.` with `.lora.down` or `.lora_A`). The rank is
// the down projection's rows; the alpha comes from the alpha tensors, else the metadata
// (`ss_network_alpha`).
class AdapterDetector {
public:
    // Reads a scalar tensor's value (an `.alpha`); nullopt when it cannot.
    using ScalarReader = std::function<std::optional<double>(const QString& tensor)>;
    static std::optional<ArchitectureComponent> detect(const NameShapes& names,
                                                       const std::optional<Metadata>& metadata,
                                                       const ScalarReader& readScalar, AdapterInfo* info);
};

} // namespace ts
