#pragma once

#include "format/Dtype.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace ts {

// The Hub's rules for counting the parameters of a quantised checkpoint, reimplemented from
// huggingface/huggingface.js, packages/hub/src/lib/parse-safetensors-metadata.ts (commit
// fe42e68): a packed integer tensor holds several weights per element (GPTQ/AWQ `qweight` 32 /
// bits per I32, bitsandbytes 4-bit two per U8, MXFP4 `_blocks` two per U8, compressed-tensors
// pack-quantized container bits / num_bits, fp8 models' routed experts by `expert_dtype`), and
// scales, zero points, shapes and index tensors are bookkeeping the Hub leaves out. What decides
// it is the model's config.json: `quantization_config` (or `text_config.quantization_config`)
// and `expert_dtype`, read as JavaScript reads them where it matters (truthiness decides the
// flags, `??` falls through on null only); a value of another JSON type than the Hub's code
// expects (a string for `bits`) counts as absent.
class HubQuantization {
public:
    HubQuantization() = default;
    // From a parsed config.json; no quantisation when it says none.
    static HubQuantization fromConfig(const QJsonObject& config);

    // Whether the config declares a quantization_config at all (the Hub's `quantConfig` is
    // truthy); without one only the dtype rule applies (F8_E8M0 is never a parameter).
    bool isPresent() const { return m_present; }
    // quant_method, lower case; empty when absent.
    const QString& method() const { return m_method; }
    const QString& expertDtype() const { return m_expertDtype; }

    // shouldSkipTensor: true for tensors the Hub does not count as parameters.
    bool skips(const QString& tensor, Dtype dtype) const;
    // getQuantizationMultiplier: parameters per stored element (1 for unpacked tensors; may be
    // fractional, as 32 / 3 for 3-bit weights in I32).
    double multiplier(const QString& tensor, Dtype dtype) const;

    // isQuantizedTensor: the config quantises this tensor (it is not in modules_to_not_convert
    // or compressed-tensors' `ignore`).
    bool isQuantized(const QString& tensor) const;
    // The Hub's wildcard match without regular expressions (globMatch).
    static bool globMatch(const QString& pattern, const QString& text);
    // compressed-tensors targets: an exact module name or a "re:" pattern of the subset the Hub
    // translates to globMatch (matchesCompressedTensorsTarget).
    static bool matchesTarget(const QString& target, const QString& module);

private:
    double compressedTensorsMultiplier(const QString& tensor, Dtype dtype) const;

    bool m_present = false;
    QJsonObject m_config; // quantization_config when it is an object
    QString m_method;
    QString m_expertDtype;
};

} // namespace ts
