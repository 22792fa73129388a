#pragma once

#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"

#include <QHash>
#include <QWidget>

#include <memory>
#include <vector>

class QFormLayout;
class QLabel;
class QVBoxLayout;

namespace ts::ui {

class TensorPanel;

// What the selected tensor (or group) is: dtype, shape, byte range, parameters. Panels added with
// addPanel() follow the selection below the facts.
class TensorDetailsView final : public QWidget {
    Q_OBJECT
public:
    explicit TensorDetailsView(QWidget* parent = nullptr);

    void setModel(std::shared_ptr<const Checkpoint> model);
    void showNode(const NameTree* tree, NameTree::Node node);
    void addPanel(TensorPanel* panel);
    // The text shown for one field: "name", "dtype", "shape", "parameters", "bytes", "range", "shard".
    QString field(const QString& key) const;

private:
    void setField(const QString& key, const QString& text, const QString& toolTip = {});

    std::shared_ptr<const Checkpoint> m_model;
    QLabel* m_title;
    QFormLayout* m_form;
    QHash<QString, QLabel*> m_fields;
    QVBoxLayout* m_panels;
    std::vector<TensorPanel*> m_panelList;
};

} // namespace ts::ui
