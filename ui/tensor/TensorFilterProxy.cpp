#include "tensor/TensorFilterProxy.h"

#include "base/Glob.h"
#include "tensor/TensorTreeModel.h"

namespace ts::ui {

TensorFilterProxy::TensorFilterProxy(QObject* parent) : QSortFilterProxyModel(parent)
{
    setRecursiveFilteringEnabled(true);
    setSortRole(TensorTreeModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
}

bool TensorFilterProxy::compile(Mode mode, const QString& pattern)
{
    m_mode = mode;
    m_error.clear();
    m_active = !pattern.isEmpty();
    m_substring = pattern;
    if (m_active && mode != Mode::Substring) {
        m_regex = mode == Mode::Glob ? globToRegularExpression(pattern, Qt::CaseInsensitive)
                                     : QRegularExpression(pattern, QRegularExpression::CaseInsensitiveOption);
        if (!m_regex.isValid()) {
            m_error = m_regex.errorString();
            m_active = false;
        } else {
            m_regex.optimize();
        }
    }
    return m_error.isEmpty();
}

bool TensorFilterProxy::setNameFilter(Mode mode, const QString& pattern)
{
    const bool ok = compile(mode, pattern);
    invalidateFilter();
    return ok;
}

void TensorFilterProxy::setDtypeFilter(std::optional<Dtype> dtype)
{
    m_dtype = dtype;
    invalidateFilter();
}

bool TensorFilterProxy::setFilter(Mode mode, const QString& pattern, std::optional<Dtype> dtype)
{
    const bool ok = compile(mode, pattern);
    m_dtype = dtype;
    invalidateFilter();
    return ok;
}

bool TensorFilterProxy::acceptsTensor(const TensorInfo& tensor) const
{
    if (m_dtype && tensor.dtype != *m_dtype)
        return false;
    if (!m_active)
        return true;
    if (m_mode == Mode::Substring)
        return tensor.name.contains(m_substring, Qt::CaseInsensitive);
    return m_regex.match(tensor.name).hasMatch();
}

int TensorFilterProxy::countMatches() const
{
    const auto* tree = qobject_cast<const TensorTreeModel*>(sourceModel());
    if (!tree || !tree->model())
        return 0;
    int n = 0;
    for (const CheckpointTensor& t : tree->model()->tensors())
        n += acceptsTensor(t.info) ? 1 : 0;
    return n;
}

bool TensorFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    if (!isFiltering())
        return true;
    // Straight to the node: this runs for every row of a 100,000-tensor tree on each keystroke
    // pause, and QVariant round trips through data() would dominate.
    const auto* tree = static_cast<const TensorTreeModel*>(sourceModel());
    const NameTree::Node node = tree->node(tree->index(sourceRow, 0, sourceParent));
    const int tensor = node == NameTree::kNone ? -1 : tree->tree()->tensor(node);
    if (tensor < 0)
        return false; // a pure group: shown through recursive filtering when a tensor below matches
    return acceptsTensor(tree->model()->tensors()[static_cast<std::size_t>(tensor)].info);
}

} // namespace ts::ui
