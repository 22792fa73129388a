#pragma once

#include "base/Error.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <vector>

class QGridLayout;
class QLabel;
class QSplitter;
class QVBoxLayout;

namespace ts::ui {

class TensorPanel;

// What the selected tensor (or group) is: dtype, shape, byte range, parameters. Panels added with
// addPanel() follow the selection: facts (statistics) scroll with the fields above, pictures
// (heatmap, histogram) get the lower, larger part of a splitter, so a heatmap has room to show a
// single element's anomaly and grows with the window.
class TensorDetailsView final : public QWidget {
    Q_OBJECT
public:
    explicit TensorDetailsView(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model);
    void showNode(const NameTree* tree, NameTree::Node node);
    enum class Place { Facts, Pictures };
    void addPanel(TensorPanel* panel, Place place = Place::Facts);
    // The text shown for one field: "name", "dtype", "shape", "parameters", "bytes", "range", "shard".
    QString field(const QString& key) const;

signals:
    // A panel could not read the tensor it shows.
    void readFailed(const ts::Error& error);

private:
    void setField(const QString& key, const QString& text, const QString& toolTip = {});

    std::shared_ptr<const Checkpoint> m_model;
    QLabel* m_title;
    QGridLayout* m_form;
    QHash<QString, QLabel*> m_fields;
    QHash<QString, QLabel*> m_captions;
    QVBoxLayout* m_panels;
    QSplitter* m_splitter;
    std::vector<TensorPanel*> m_panelList;
};

} // namespace ts::ui
