#include "diff/DiffReport.h"

namespace ts::diff {

QString pairedByName(PairedBy by)
{
    switch (by) {
    case PairedBy::Name:
        return QStringLiteral("name");
    case PairedBy::Rule:
        return QStringLiteral("rule");
    case PairedBy::Content:
        return QStringLiteral("content");
    case PairedBy::Shape:
        return QStringLiteral("shape");
    }
    return {};
}

QString pairStatusName(PairStatus status)
{
    switch (status) {
    case PairStatus::Identical:
        return QStringLiteral("identical");
    case PairStatus::Changed:
        return QStringLiteral("changed");
    case PairStatus::NotCompared:
        return QStringLiteral("not-compared");
    }
    return {};
}

const TensorInfo& DiffReport::infoA(const TensorPair& p) const
{
    return a->tensors()[static_cast<std::size_t>(p.a)].info;
}

const TensorInfo& DiffReport::infoB(const TensorPair& p) const
{
    return b->tensors()[static_cast<std::size_t>(p.b)].info;
}

bool DiffReport::identical() const
{
    if (!added.empty() || !removed.empty() || !metadata.empty())
        return false;
    for (const TensorPair& p : pairs) {
        if (p.status != PairStatus::Identical || p.renamed())
            return false;
    }
    return true;
}

DiffReport::Counts DiffReport::counts() const
{
    Counts c;
    for (const TensorPair& p : pairs) {
        switch (p.status) {
        case PairStatus::Identical:
            ++c.identical;
            break;
        case PairStatus::Changed:
            ++c.changed;
            ++c.byKind[static_cast<int>(p.verdict.kind)];
            break;
        case PairStatus::NotCompared:
            ++c.notCompared;
            break;
        }
        c.renamed += p.by == PairedBy::Rule;
        c.suggested += p.suggested();
        c.reshaped += infoA(p).shape != infoB(p).shape;
        c.dtypeChanged += infoA(p).dtype != infoB(p).dtype;
    }
    c.added = static_cast<int>(added.size());
    c.removed = static_cast<int>(removed.size());
    c.metadata = static_cast<int>(metadata.size());
    return c;
}

} // namespace ts::diff
