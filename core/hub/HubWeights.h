#pragma once

#include <QString>

namespace ts {

// Which weights the Hugging Face Hub counts for a model folder, and where it reads the model's
// configuration, as huggingface.js decides (packages/hub/src/lib/parse-safetensors-metadata.ts,
// parseSafetensorsMetadata): a path it is given is read as it is (a .safetensors file, or a
// .safetensors.index.json and the shards it names); a repository is read from the root
// model.safetensors, else model.safetensors.index.json, and for a diffusers repository then from
// transformer/, unet/ or the root's diffusion_pytorch_model.safetensors[.index.json] (the
// diffusion model alone: the Hub does not add the VAE or the text encoders). The config is always
// the repository root's config.json.
struct HubWeights {
    QString weights;  // the file or index .json the Hub reads; empty when it finds none
    QString root;     // the folder taken as the repository root
    QString relative; // `weights` as the Hub names it, relative to the root
                      // ("unet/diffusion_pytorch_model.safetensors")
    QString config;   // root/config.json (it may not exist)
    bool diffusers = false;
    QString rule; // why these weights, one sentence for the summary and the report

    bool found() const { return !weights.isEmpty(); }
};

class HubWeightsLocator {
public:
    // `opened`: a file, an index .json or a folder, as the user gave it.
    static HubWeights locate(const QString& opened);
};

} // namespace ts
