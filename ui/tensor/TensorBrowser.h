#pragma once

#include "base/Error.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "common/JobRunner.h"
#include "tensor/TensorFilterProxy.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QResizeEvent;
class QSplitter;
class QTimer;
class QTreeView;

namespace ts::ui {

class TensorDetailsView;
class TensorTreeModel;

// The tensor tree with its filter bar on the left and the details of the selection on the right.
class TensorBrowser final : public QWidget {
    Q_OBJECT
public:
    explicit TensorBrowser(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model, std::shared_ptr<const NameTree> tree);
    // Selects a tensor by name, clearing a filter that hides it. False when there is no such tensor.
    bool selectTensor(const QString& name);
    void focusFilter();
    // Applies the filter box now instead of after the typing pause: at once when it filters
    // nothing, else through a pass on the thread pool (filterApplied() when it is shown).
    void applyFilter();
    // Tensors (not groups) the filter shown lets through.
    int matchingTensorCount() const;
    // A filter pass is running: the tree still shows the previous filter.
    bool isFilterPending() const { return m_filterPending; }

    // The tree's models, and the details pane the document adds its panels to. The other widgets
    // are found by object name: "tree", "filter", "filterMode", "dtypeFilter", "filterMatches".
    TensorTreeModel* treeModel() const { return m_model; }
    TensorFilterProxy* proxy() const { return m_proxy; }
    TensorDetailsView* details() const { return m_details; }

    // Whether the tree now shows every column up to Bytes without scrolling sideways.
    int treeWidthWanted() const { return m_treeWidthWanted; }

signals:
    // Reading a tensor failed (a panel of the details, or an export): the document offers a
    // reload when the file changed under it.
    void readFailed(const ts::Error& error);
    // The tree now shows the filter last applied.
    void filterApplied();

protected:
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void showContextMenu(const QPoint& pos);
    void sizeColumns();
    // Until the user moves the splitter (or WindowMemory restored it), the tree gets the width
    // its columns up to Bytes need, within 30-50% of the page, the details the rest.
    void applyDefaultSplit();
    // When the tree pane is narrower than its columns, Name and then Shape give up width (down to
    // about 11 and 7 characters, then the tree scrolls) so that Parameters and Bytes stay in view.
    void fitNameColumn();
    void updateMatchLabel();
    void showFilterResult(std::shared_ptr<const TreeFilterResult> result);
    void onCurrentChanged(const QModelIndex& current);

    std::shared_ptr<const Checkpoint> m_modelData;
    std::shared_ptr<const NameTree> m_tree;
    TensorTreeModel* m_model;
    TensorFilterProxy* m_proxy;
    QLineEdit* m_filter;
    QComboBox* m_mode;
    QComboBox* m_dtype;
    QLabel* m_matches;
    QTimer* m_debounce;
    QTreeView* m_view;
    TensorDetailsView* m_details;
    JobRunner m_filterJob; // the filter pass over the tree
    QString m_patternError;
    bool m_filterPending = false;
    QSplitter* m_splitter;
    int m_matchCount = 0;
    int m_treeWidthWanted = 0;
    int m_nameWidthWanted = 0; // what the longest names need; fitNameColumn() never goes wider
    int m_shapeWidthWanted = 0;
    bool m_userSplit = false;
    bool m_sizingColumns = false;    // this class is setting column widths (not the user)
    bool m_userSizedColumns = false; // the user dragged Name or Shape: fitNameColumn() leaves them
};

} // namespace ts::ui
