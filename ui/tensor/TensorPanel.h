#pragma once

#include "base/Error.h"
#include "checkpoint/Checkpoint.h"

#include <QWidget>

#include <memory>

namespace ts::ui {

// A panel of the tensor details area. The visuals issue adds statistics, histogram and heatmap
// panels by subclassing this and calling TensorDetailsView::addPanel().
class TensorPanel : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // `tensor` indexes model->tensors(); -1 when a group or nothing is selected.
    virtual void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) = 0;

signals:
    // Reading the tensor failed; the document offers a reload when the file changed under it.
    void readFailed(const ts::Error& error);
};

} // namespace ts::ui
