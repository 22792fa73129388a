#pragma once

#include "architecture/ModelProfile.h"
#include "base/Diagnostic.h"
#include "format/Dtype.h"
#include "format/Metadata.h"
#include "report/FileHasher.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ts {

// One family of same-named tensors across numbered blocks and a statistic of each, for the
// report's per-layer charts ("model.layers.#.mlp.down_proj.weight": std and abs max per block).
struct LayerSeries {
    QString pattern;
    std::vector<int> blocks;
    std::vector<double> std; // per block, NaN where the tensor had no finite value
    std::vector<double> absmax;
    std::vector<int> flagged; // blocks a LayerOutlier finding names
};

struct DtypeLine {
    Dtype dtype = Dtype::F32;
    std::uint64_t tensors = 0;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;
};

// Everything an audit report says, gathered once (ReportBuilder) and written by the HTML, JSON
// and Markdown writers, so the three always agree.
struct AuditReport {
    QString title;       // the model's display name
    QString opened;      // what was opened, as given
    QString generatedAt; // UTC, ISO 8601
    QString tool;        // "Tensorscope 0.1.0"
    QString formatName;  // "safetensors"
    QString kind;        // "single file", "sharded (index)", "sharded (folder)"

    std::uint64_t tensorCount = 0;
    std::uint64_t elements = 0;
    std::uint64_t tensorBytes = 0;
    std::uint64_t fileBytes = 0;
    std::uint64_t headerBytes = 0;
    std::vector<DtypeLine> dtypes;

    ModelProfile profile;

    // The files with their sizes, and their SHA-256 when they were hashed.
    std::vector<FileDigest> files;
    bool hashed = false;
    QString hashNote; // why they were not, or the backend and the speed
    QString hashBackend;

    std::vector<Diagnostic> validation; // the format check's warnings
    bool scanned = false;
    bool scanNanInfOnly = false;
    QString scanNote; // why there was no scan, or how long it took
    std::vector<Diagnostic> scanFindings;
    std::vector<LayerSeries> layers;
    std::uint64_t layerFamilies = 0; // families found; layers holds at most kMaxLayerCharts of them

    std::optional<Metadata> metadata;

    // Every finding, errors first: validation, architecture and config, scan.
    std::vector<Diagnostic> allFindings() const;
    int errorCount() const;
};

inline constexpr std::size_t kMaxLayerCharts = 48;

} // namespace ts
