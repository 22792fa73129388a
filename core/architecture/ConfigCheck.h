#pragma once

#include "architecture/Architecture.h"
#include "base/Diagnostic.h"

#include <QJsonObject>
#include <QString>

#include <vector>

namespace ts {

// One field of the configuration as the weights and config.json each give it.
struct ConfigComparison {
    QString component; // the component's role ("model", "unet", "text encoder")
    QString key;       // the field ("num_hidden_layers")
    QString label;     // "Layers"
    QString configKey; // the config.json key read ("n_layer"), with its section ("text_config.hidden_size")
    QString weights;   // what the weights say, or "cannot tell"
    QString config;    // what config.json says
    bool compared = false; // both sides known
    bool agrees = false;
};

struct ConfigCheckResult {
    QString path;         // the config read, or empty when none sits beside the weights
    QString problem;      // it exists but could not be read
    QString modelType;    // model_type, or diffusers' _class_name
    QString architecture; // architectures[0]
    std::vector<ConfigComparison> comparisons;
    // ConfigMismatch (error) for every field the weights contradict; TiedHeadIgnored (warning)
    // for a stored head that the config ties to the embeddings; ConfigUnreadable (warning).
    std::vector<Diagnostic> findings;

    bool found() const { return !path.isEmpty(); }
};

// Compares what the names and shapes say with the config.json beside them: every field both
// give, the heads x head_dim products behind the projections' rows, and the family (model_type,
// or diffusers' _class_name). A config that says 32 layers beside weights with 30 is what an
// audit must catch: transformers would build 32 and initialise two at random.
class ConfigCheck {
public:
    static ConfigCheckResult compare(const Architecture& architecture, const QJsonObject& config,
                                     const QString& path);
    // Reads `path` (at most 10 MB) and compares; a missing file gives an empty result.
    static ConfigCheckResult compareFile(const Architecture& architecture, const QString& path);
    // A PEFT adapter_config.json (r, lora_alpha, target_modules) or kohya's ss_* metadata against the
    // adapter.
    static void compareAdapter(const Architecture& architecture, const QJsonObject& adapterConfig,
                               const QString& path, ConfigCheckResult& into);
};

} // namespace ts
