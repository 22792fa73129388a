#include "checkpoint/NameTree.h"

#include "base/NaturalOrder.h"

#include <QHash>

#include <algorithm>

namespace ts {
namespace {

void addTotals(NameTreeNode& node, Dtype dtype, std::uint64_t parameters, std::uint64_t bytes)
{
    ++node.tensorCount;
    node.parameters += parameters;
    node.bytes += bytes;
    auto it = std::lower_bound(node.byDtype.begin(), node.byDtype.end(), dtype,
                               [](const DtypeTotals& t, Dtype d) { return t.dtype < d; });
    if (it == node.byDtype.end() || it->dtype != dtype)
        it = node.byDtype.insert(it, DtypeTotals{dtype});
    ++it->tensors;
    it->parameters += parameters;
    it->bytes += bytes;
}

void sortChildren(NameTreeNode& node)
{
    std::sort(node.children.begin(), node.children.end(),
              [](const auto& a, const auto& b) { return NameTree::segmentLess(a->segment, b->segment); });
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        node.children[i]->rowInParent = static_cast<int>(i);
        sortChildren(*node.children[i]);
    }
}

} // namespace

bool NameTree::segmentLess(const QString& a, const QString& b)
{
    return naturalLess(a, b);
}

NameTree::NameTree(const Checkpoint& model) : m_root(std::make_unique<NameTreeNode>())
{
    const auto& tensors = model.tensors();
    m_byTensor.assign(tensors.size(), nullptr);
    // Child lookup per node while building; dropped afterwards.
    QHash<const NameTreeNode*, QHash<QString, NameTreeNode*>> index;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const TensorInfo& t = tensors[i].info;
        const std::uint64_t params = t.elementCount();
        const std::uint64_t bytes = t.byteSize();
        NameTreeNode* node = m_root.get();
        addTotals(*node, t.dtype, params, bytes);
        // Segment by segment, without a list of them all (QString::split of 5 M dots is 280 MB).
        qsizetype start = 0;
        for (int depth = 1; start >= 0; ++depth) {
            const qsizetype dot = depth < kMaxNameTreeDepth ? t.name.indexOf(QLatin1Char('.'), start) : -1;
            // The whole name as one segment shares the name's characters instead of copying them.
            const QString segment =
                start == 0 && dot < 0 ? t.name : t.name.mid(start, dot < 0 ? -1 : dot - start);
            start = dot < 0 ? -1 : dot + 1;
            auto& children = index[node];
            NameTreeNode* child = children.value(segment, nullptr);
            if (!child) {
                auto created = std::make_unique<NameTreeNode>();
                created->segment = segment;
                created->parent = node;
                child = created.get();
                node->children.push_back(std::move(created));
                children.insert(segment, child);
            }
            node = child;
            addTotals(*node, t.dtype, params, bytes);
        }
        node->tensor = static_cast<int>(i);
        m_byTensor[i] = node;
    }
    sortChildren(*m_root);
}

QString NameTreeNode::path() const
{
    if (!parent)
        return {};
    qsizetype length = segment.size();
    for (const NameTreeNode* n = parent; n->parent; n = n->parent)
        length += n->segment.size() + 1;
    QString out(length, Qt::Uninitialized);
    qsizetype end = length;
    for (const NameTreeNode* n = this; n->parent; n = n->parent) {
        end -= n->segment.size();
        std::copy(n->segment.cbegin(), n->segment.cend(), out.begin() + end);
        if (end > 0)
            out[--end] = QLatin1Char('.');
    }
    return out;
}

const NameTreeNode* NameTree::nodeForTensor(int tensor) const
{
    if (tensor < 0 || static_cast<std::size_t>(tensor) >= m_byTensor.size())
        return nullptr;
    return m_byTensor[static_cast<std::size_t>(tensor)];
}

} // namespace ts
