#pragma once

#include "base/Diagnostic.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

// One fact of a model's configuration as the weights show it: "num_hidden_layers 32, from
// model.layers.0-31". `value` is empty where the shapes cannot tell (GPT-2's heads are fused
// into c_attn's columns); `note` then says why. `configKeys` are the config.json names the
// value is compared with, first match wins ("num_hidden_layers", "n_layer").
struct ArchitectureField {
    // How the value compares with config.json: a number, a yes/no against a JSON bool, or a
    // list of numbers against a JSON array ("320, 640, 1280").
    enum class Kind { Number, Flag, List };
    QString key;   // stable, config.json's usual name: "num_hidden_layers"
    QString label; // "Layers"
    std::optional<std::uint64_t> value;
    QString text;     // a value that is not one number ("320, 640, 1280, 1280", "yes"); compared as text
    QString evidence; // where the value comes from, or why the shapes cannot tell
    QStringList configKeys;
    Kind kind = Kind::Number;
    bool shown = true; // false: kept for the config check only (query rows behind the heads)

    bool known() const { return value.has_value() || !text.isEmpty(); }
    QString display() const; // "32", "320, 640, 1280", "cannot tell"
};

// A model inside the file: the whole model, or one of a pipeline's parts (a Stable Diffusion
// checkpoint holds a UNet, a VAE and a text encoder under three prefixes).
struct ArchitectureComponent {
    QString role;   // "model", "unet", "vae", "text encoder", "text encoder 2", "adapter"
    QString family; // stable id: "llama", "mixtral", "gpt2", "bert", "t5", "vit", "clip-text", "sd-unet"...
    QString name;   // for people: "Llama-style decoder"
    QString detail; // a refinement the names give: "Qwen2/Qwen2.5 (q/k/v biases)", "SDXL"
    QString prefix; // the tensor-name prefix of the component ("model.diffusion_model.")
    QString
        configSection; // config.json object its fields are compared with ("text_config"); empty: top level
    std::vector<ArchitectureField> fields;
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;

    const ArchitectureField* field(const QString& key) const;
};

// A LoRA-style adapter: what it adapts and how strongly.
struct AdapterInfo {
    QString format;                   // "kohya", "PEFT", "diffusers"
    QString method;                   // "LoRA", "LoHa", "LoKr", "DoRA"
    std::vector<std::uint64_t> ranks; // distinct ranks, ascending
    std::optional<double> alpha;      // when every module agrees
    QString alphaSource;              // "alpha tensors", "ss_network_alpha", "adapter_config.json"
    std::uint64_t modules = 0;        // adapted modules
    QStringList targets;              // module kinds adapted ("q_proj", "to_k"), sorted
    QStringList components;           // "unet", "text encoder"
    QString base; // what it adapts, where the names or metadata say ("Stable Diffusion 1.x UNet")
};

// What the names and shapes say a checkpoint is.
struct Architecture {
    QString family; // of the main component; empty when not recognised
    QString name;   // "Llama-style decoder", "Stable Diffusion 1.x checkpoint (UNet, VAE, text encoder)"
    std::vector<ArchitectureComponent> components;
    std::optional<AdapterInfo> adapter;
    QStringList notes; // what a reader should know about the reading of the names
    // What the names and shapes alone show to be wrong: a numbered block missing from a run, a
    // block without a tensor all its siblings have (codes MissingBlock, IncompleteBlock).
    std::vector<Diagnostic> findings;

    bool recognized() const { return !family.isEmpty(); }
};

} // namespace ts
