#pragma once

#include "format/TensorInfo.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ts {

// Numbered blocks under one prefix: "model.layers." with blocks 0..31.
struct BlockRun {
    QString container;       // the prefix before the block number, dot included
    std::vector<int> blocks; // sorted, distinct
    int count() const { return static_cast<int>(blocks.size()); }
    int last() const { return blocks.empty() ? -1 : blocks.back(); }
    // Numbers missing from 0..last().
    std::vector<int> missing() const;
};

// The tensor names and shapes of a checkpoint, indexed for the questions architecture detection
// asks: does this name exist, what is its shape, which numbered blocks carry this tail.
class NameShapes {
public:
    // How a name is looked up when the caller has an index already (a checkpoint's): no second
    // one is built. Returns null for a name that is not there.
    using Lookup = std::function<const TensorInfo*(const QString&)>;

    explicit NameShapes(const std::vector<const TensorInfo*>& tensors);
    // `lookup` must find exactly the names of `tensors`. A checkpoint of 4 M tensors spent a
    // second and 200 MB hashing its names again here.
    NameShapes(const std::vector<const TensorInfo*>& tensors, Lookup lookup);

    const std::vector<const TensorInfo*>& all() const { return m_tensors; }
    const TensorInfo* find(const QString& name) const
    {
        return m_lookup ? m_lookup(name) : m_byName.value(name, nullptr);
    }
    bool has(const QString& name) const { return find(name) != nullptr; }
    // Dimension `axis` of a tensor (negative counts from the end); nullopt when the tensor or the axis is
    // absent.
    std::optional<std::uint64_t> dim(const QString& name, int axis) const;
    std::optional<int> rank(const QString& name) const;
    bool anyStartsWith(const QString& prefix) const;
    bool anyContains(const QString& part) const;
    bool anyEndsWith(const QString& suffix) const;
    // The first tensor name that ends with `suffix`, or empty.
    QString firstEndingWith(const QString& suffix) const;

    // The numbered blocks whose names end in ".<n>.<tail>", grouped by what comes before the
    // number; the run with the most blocks (ties: the shorter prefix). Empty container: none.
    BlockRun findBlocks(const QString& tail) const;
    // Blocks under `container` that hold `tail` ("model.layers." + n + "." + tail).
    std::vector<int> blocksWith(const QString& container, const QString& tail) const;
    // Every tail found under `container` + n + "." for block n.
    std::vector<QString> tailsOf(const QString& container, int block) const;

    // Tensors and elements whose names start with `prefix` (all when empty).
    std::uint64_t tensorsUnder(const QString& prefix) const;
    std::uint64_t elementsUnder(const QString& prefix) const;

private:
    std::vector<const TensorInfo*> m_tensors;
    Lookup m_lookup;
    QHash<QString, const TensorInfo*> m_byName; // when no lookup was given
};

} // namespace ts
