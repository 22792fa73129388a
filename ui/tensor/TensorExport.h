#pragma once

#include "checkpoint/Checkpoint.h"

#include <QFuture>
#include <QString>

#include <memory>

class QWidget;

namespace ts::ui {

// "Export Tensor..." in the tensor browser: one tensor to .npy or .csv through ts::TensorExporter,
// off the UI thread (a tensor can be gigabytes).
class TensorExport {
public:
    struct Outcome {
        bool ok = false;
        QString message; // the error, or the exporter's note (e.g. BF16 widened to float32)
    };

    static QFuture<Outcome> start(std::shared_ptr<const Checkpoint> model, int tensor, QString path);
    // Asks for a file name, exports, and reports the outcome in a non-modal message box.
    static void exportWithDialog(QWidget* parent, std::shared_ptr<const Checkpoint> model, int tensor);
};

} // namespace ts::ui
