#include "architecture/NameShapes.h"

#include <QMap>

#include <algorithm>

namespace ts {
namespace {

// "12" -> 12; nullopt for anything but a short run of digits.
std::optional<int> blockNumber(QStringView digits)
{
    if (digits.isEmpty() || digits.size() > 6)
        return std::nullopt;
    int n = 0;
    for (QChar c : digits) {
        if (!c.isDigit() || c.unicode() > u'9')
            return std::nullopt;
        n = n * 10 + (c.unicode() - u'0');
    }
    return n;
}

} // namespace

std::vector<int> BlockRun::missing() const
{
    std::vector<int> gaps;
    std::size_t next = 0;
    for (int n = 0; n <= last(); ++n) {
        if (next < blocks.size() && blocks[next] == n)
            ++next;
        else
            gaps.push_back(n);
    }
    return gaps;
}

NameShapes::NameShapes(const std::vector<const TensorInfo*>& tensors) : m_tensors(tensors)
{
    m_byName.reserve(static_cast<qsizetype>(tensors.size()));
    for (const TensorInfo* t : tensors)
        m_byName.insert(t->name, t);
}

NameShapes::NameShapes(const std::vector<const TensorInfo*>& tensors, Lookup lookup)
    : m_tensors(tensors), m_lookup(std::move(lookup))
{
}

std::optional<std::uint64_t> NameShapes::dim(const QString& name, int axis) const
{
    const TensorInfo* t = find(name);
    if (!t)
        return std::nullopt;
    const int rank = static_cast<int>(t->shape.size());
    const int i = axis < 0 ? rank + axis : axis;
    if (i < 0 || i >= rank)
        return std::nullopt;
    return t->shape[static_cast<std::size_t>(i)];
}

std::optional<int> NameShapes::rank(const QString& name) const
{
    const TensorInfo* t = find(name);
    return t ? std::optional<int>(static_cast<int>(t->shape.size())) : std::nullopt;
}

bool NameShapes::anyStartsWith(const QString& prefix) const
{
    return std::any_of(m_tensors.begin(), m_tensors.end(),
                       [&](const TensorInfo* t) { return t->name.startsWith(prefix); });
}

bool NameShapes::anyContains(const QString& part) const
{
    return std::any_of(m_tensors.begin(), m_tensors.end(),
                       [&](const TensorInfo* t) { return t->name.contains(part); });
}

bool NameShapes::anyEndsWith(const QString& suffix) const
{
    return !firstEndingWith(suffix).isEmpty();
}

QString NameShapes::firstEndingWith(const QString& suffix) const
{
    for (const TensorInfo* t : m_tensors) {
        if (t->name.endsWith(suffix))
            return t->name;
    }
    return {};
}

BlockRun NameShapes::findBlocks(const QString& tail) const
{
    QMap<QString, std::vector<int>> runs;
    const QString dottedTail = QLatin1Char('.') + tail;
    for (const TensorInfo* t : m_tensors) {
        const QString& name = t->name;
        if (!name.endsWith(dottedTail))
            continue;
        const QStringView head = QStringView(name).left(name.size() - dottedTail.size());
        const qsizetype dot = head.lastIndexOf(QLatin1Char('.'));
        const std::optional<int> n = blockNumber(head.mid(dot + 1));
        if (!n)
            continue;
        runs[head.left(dot + 1).toString()].push_back(*n);
    }
    BlockRun best;
    for (auto it = runs.begin(); it != runs.end(); ++it) {
        std::vector<int>& blocks = it.value();
        std::sort(blocks.begin(), blocks.end());
        blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
        const bool better = best.container.isEmpty() || blocks.size() > best.blocks.size() ||
                            (blocks.size() == best.blocks.size() && it.key().size() < best.container.size());
        if (better) {
            best.container = it.key();
            best.blocks = blocks;
        }
    }
    return best;
}

std::vector<int> NameShapes::blocksWith(const QString& container, const QString& tail) const
{
    std::vector<int> blocks;
    const QString dottedTail = QLatin1Char('.') + tail;
    for (const TensorInfo* t : m_tensors) {
        const QString& name = t->name;
        if (!name.startsWith(container) || !name.endsWith(dottedTail) ||
            name.size() <= container.size() + dottedTail.size())
            continue;
        const QStringView middle =
            QStringView(name).mid(container.size(), name.size() - container.size() - dottedTail.size());
        if (const std::optional<int> n = blockNumber(middle))
            blocks.push_back(*n);
    }
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
    return blocks;
}

std::vector<QString> NameShapes::tailsOf(const QString& container, int block) const
{
    std::vector<QString> tails;
    const QString prefix = container + QString::number(block) + QLatin1Char('.');
    for (const TensorInfo* t : m_tensors) {
        if (t->name.startsWith(prefix))
            tails.push_back(t->name.mid(prefix.size()));
    }
    return tails;
}

std::uint64_t NameShapes::tensorsUnder(const QString& prefix) const
{
    return static_cast<std::uint64_t>(std::count_if(
        m_tensors.begin(), m_tensors.end(), [&](const TensorInfo* t) { return t->name.startsWith(prefix); }));
}

std::uint64_t NameShapes::elementsUnder(const QString& prefix) const
{
    std::uint64_t sum = 0;
    for (const TensorInfo* t : m_tensors) {
        if (t->name.startsWith(prefix))
            sum += t->elementCount();
    }
    return sum;
}

} // namespace ts
