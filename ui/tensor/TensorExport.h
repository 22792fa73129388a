#pragma once

#include "base/Error.h"
#include "checkpoint/Checkpoint.h"
#include "convert/TensorExporter.h"

#include <QString>

#include <functional>
#include <memory>

class QWidget;

namespace ts::ui {

// "Export Tensor..." in the tensor browser: one tensor to .npy or .csv through ts::TensorExporter,
// off the UI thread (a tensor can be gigabytes).
class TensorExport {
public:
    // The exporter's note (e.g. BF16 widened to float32), or the core's error.
    using Outcome = Result<TensorExporter::Outcome>;

    // Blocking: what the job runs on a pool thread.
    static Outcome run(const std::shared_ptr<const Checkpoint>& model, int tensor, const QString& path);
    // Asks for a file name, exports, and reports the outcome in a non-modal message box;
    // `failed` also hears of an error (the document's reload banner, for FileChanged).
    static void exportWithDialog(QWidget* parent, std::shared_ptr<const Checkpoint> model, int tensor,
                                 std::function<void(const Error&)> failed = {});
};

} // namespace ts::ui
