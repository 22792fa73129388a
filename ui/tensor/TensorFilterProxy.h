#pragma once

#include "checkpoint/TreeFilter.h"

#include <QSortFilterProxyModel>

#include <memory>

namespace ts::ui {

// Sorts the tensor tree and shows what a finished filter pass (TreeFilter, run as a job by
// TensorBrowser) left visible: a row is shown by looking its node up, never by matching its name
// here, so refiltering a tree of a million names costs the UI thread only the rows it has mapped.
class TensorFilterProxy final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit TensorFilterProxy(QObject* parent = nullptr);

    // Shows what `result` keeps; null (or a result for another tree) shows everything.
    void setResult(std::shared_ptr<const TreeFilterResult> result);
    bool isFiltering() const { return m_result != nullptr; }
    // Name ascending is the tree's own order (built in natural order): kept as the source gives
    // it rather than sorted again. Sorting compares through source indexes made per comparison,
    // and re-sorting the 90,000 children of one group after each refilter held the UI thread for
    // 120-150 ms.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    // From the tree or the filter pass, without filtering the children of `parent`: the view asks
    // this of every row it lays out, and QSortFilterProxyModel answers by mapping each one.
    bool hasChildren(const QModelIndex& parent = {}) const override;

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::shared_ptr<const TreeFilterResult> m_result; // what the rows are filtered by
    // What hasChildren() answers from: the same result, but switched only once the layout has
    // changed, so that listeners of layoutAboutToBeChanged still see the old tree whole.
    std::shared_ptr<const TreeFilterResult> m_laidOut;
};

} // namespace ts::ui
