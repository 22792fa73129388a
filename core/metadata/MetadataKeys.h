#pragma once

#include <QString>

#include <optional>

namespace ts {

// What a well-known `__metadata__` key means: who writes it and what its value says, and where a
// value is opaque (a Unix time, a JSON blob, a data URI), what it decodes to.
struct MetadataExplanation {
    QString origin;  // who writes it: "safetensors / transformers", "kohya-ss sd-scripts", "Stability AI
                     // ModelSpec"
    QString meaning; // one sentence
    QString decoded; // the value read for people ("2023-11-14 22:13:20 UTC"), or empty
};

// The keys producers write and readers rely on: `format` (safetensors' own convention),
// `total_parameters` (the Hub's shortcut, huggingface.js parseTotalParameters), Stability AI's
// ModelSpec `modelspec.*` (github.com/Stability-AI/ModelSpec), kohya-ss sd-scripts' training
// record `ss_*` (train_network.py) and the Additional Networks extension's `sshs_*` hashes.
class MetadataKeys {
public:
    static std::optional<MetadataExplanation> explain(const QString& key, const QString& value);
};

} // namespace ts
