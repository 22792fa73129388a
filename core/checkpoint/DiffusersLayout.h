#pragma once

#include <QString>
#include <QStringList>

#include <vector>

namespace ts {

// A diffusers pipeline folder: model_index.json at the top and one folder per component
// (unet/, vae/, text_encoder/, transformer/...), each with its config.json and weights.
struct DiffusersComponent {
    QString name;    // the folder: "unet"
    QString library; // from model_index.json: "diffusers", "transformers"
    QString type;    // "UNet2DConditionModel"
    QString weights; // the component's weights (a file or an index .json), or empty
};

class DiffusersLayout {
public:
    // True when `folder` holds a model_index.json: a diffusers pipeline.
    static bool isPipeline(const QString& folder);
    // True when `folder` looks like diffusers wrote it: a pipeline, or a single component whose
    // config.json names its diffusers class (`_class_name` with `_diffusers_version`).
    static bool isDiffusers(const QString& folder);
    // The components model_index.json lists, in name order, with their weights where present.
    static std::vector<DiffusersComponent> components(const QString& folder);
    // The weights the Hub counts for a diffusers repository, as huggingface.js resolves them
    // (packages/hub/src/lib/parse-safetensors-metadata.ts, LIBRARY_WEIGHT_CANDIDATES): the
    // transformer, else the UNet, else a single component's root file; each as the single
    // diffusion_pytorch_model.safetensors before its .index.json. Empty when none exists.
    static QString mainWeights(const QString& folder);
    // The weights of one component folder: diffusers' or transformers' file names, single file
    // before index. Empty when there are none.
    static QString componentWeights(const QString& componentFolder);
};

} // namespace ts
