#pragma once

#include "checkpoint/Checkpoint.h"
#include "diff/ChangeMetrics.h"
#include "diff/ChangeVerdict.h"
#include "diff/MetadataDiff.h"
#include "diff/RankEstimate.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace ts::diff {

// How a tensor of A was matched with one of B.
enum class PairedBy {
    Name,    // the same name
    Rule,    // a rename rule the user gave
    Content, // suggested: the same dtype, shape and content hash under another name
    Shape,   // suggested: the only tensors left with this shape on either side
};
QString pairedByName(PairedBy by); // "name", "rule", "content", "shape"

enum class PairStatus { Identical, Changed, NotCompared };
QString pairStatusName(PairStatus status); // "identical", "changed", "not-compared"

struct TensorPair {
    int a = -1; // tensor index in A
    int b = -1; // tensor index in B
    PairedBy by = PairedBy::Name;
    PairStatus status = PairStatus::NotCompared;
    QString note; // NotCompared: why, in one sentence
    std::optional<ChangeMetrics> metrics;
    std::optional<RankEstimate> rank;
    QString rankNote; // why no rank was estimated, when one was asked for
    ChangeVerdict verdict;

    bool renamed() const { return by != PairedBy::Name; }
    bool suggested() const { return by == PairedBy::Content || by == PairedBy::Shape; }
};

// Everything a comparison of two checkpoints found. Self-contained: it holds both checkpoints, so
// views and the JSON writer can name tensors and show shapes without another reference.
struct DiffReport {
    std::shared_ptr<const Checkpoint> a;
    std::shared_ptr<const Checkpoint> b;
    QStringList renameRules;       // as given, for the report
    std::vector<TensorPair> pairs; // in A's order; suggestions after the rest
    std::vector<int> removed;      // tensors of A with no partner in B
    std::vector<int> added;        // tensors of B with no partner in A
    std::vector<MetadataChange> metadata;
    QStringList notes; // sentences about the whole comparison ("nothing in common")
    std::uint64_t bytesRead = 0;
    double seconds = 0;

    // Every tensor paired by name with the same bytes, and the same metadata.
    bool identical() const;
    const TensorInfo& infoA(const TensorPair& p) const;
    const TensorInfo& infoB(const TensorPair& p) const;

    struct Counts {
        int identical = 0, changed = 0, notCompared = 0;
        int renamed = 0, suggested = 0, reshaped = 0, dtypeChanged = 0;
        int added = 0, removed = 0, metadata = 0;
        int byKind[10] = {}; // indexed by ChangeKind, changed pairs only
    };
    Counts counts() const;
};

} // namespace ts::diff
