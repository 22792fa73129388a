#pragma once

#include "architecture/Architecture.h"
#include "architecture/ConfigCheck.h"
#include "base/Diagnostic.h"
#include "hub/HubParameterCount.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace ts {

class Checkpoint;

// One component of a diffusers pipeline folder, as its own weights describe it.
struct PipelinePart {
    QString name;    // "vae"
    QString type;    // "AutoencoderKL" (model_index.json)
    QString weights; // the file or index read; empty when the component has no safetensors weights
    QString family;  // what the detector made of it
    QString architecture;
    std::uint64_t parameters = 0; // elements
    bool opened = false;          // the component the document shows
    QString problem;              // its weights failed to open
};

// What a model is, in the terms users compare with the Hub and with config.json: the
// architecture the names and shapes show, the parameter count the Hub would show for the same
// folder, the config.json beside the weights compared field by field, and for a diffusers
// pipeline its other components. Computed off the UI thread with the load (it reads headers,
// never tensor data, except an adapter's scalar alphas).
struct ModelProfile {
    Architecture architecture;
    HubParameterCount hub;
    ConfigCheckResult config;
    std::vector<PipelinePart> pipeline;

    // The findings for the audit list: the architecture's own and config.json's.
    std::vector<Diagnostic> findings() const;
};

class ModelProfiler {
public:
    // `opened` is what the user gave (a folder, an index, a file): it decides the Hub's files.
    static ModelProfile profile(const Checkpoint& checkpoint, const QString& opened);
    // The config.json (or a PEFT adapter_config.json) that describes `checkpoint`: beside its
    // first part. Empty when there is none.
    static QString configBeside(const Checkpoint& checkpoint);
};

} // namespace ts
