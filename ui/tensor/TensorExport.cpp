#include "tensor/TensorExport.h"

#include "common/JobRunner.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace ts::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ts::ui::TensorExport", text);
}

} // namespace

TensorExport::Outcome TensorExport::run(const std::shared_ptr<const Checkpoint>& model, int tensor,
                                        const QString& path)
{
    const auto format = TensorExporter::formatForPath(path);
    if (!format)
        return makeError(ErrorCode::InvalidArgument, path, tr("choose a .npy or .csv file name"));
    // The save dialog has confirmed replacing an existing file, but never the model's own.
    return TensorExporter::exportFromModel(*model, tensor, path, *format);
}

void TensorExport::exportWithDialog(QWidget* parent, std::shared_ptr<const Checkpoint> model, int tensor,
                                    std::function<void(const Error&)> failed)
{
    if (!model || tensor < 0 || tensor >= static_cast<int>(model->tensors().size()))
        return;
    const QString name = model->tensors()[static_cast<std::size_t>(tensor)].info.name;
    QString suggested = name;
    suggested.replace(QLatin1Char('/'), QLatin1Char('_'));
    const QString dir = QFileInfo(model->path()).absolutePath();
    const QString path = QFileDialog::getSaveFileName(
        parent, tr("Export Tensor"), dir + QLatin1Char('/') + suggested + QStringLiteral(".npy"),
        tr("NumPy array (*.npy);;CSV, 1-D and 2-D only (*.csv)"));
    if (path.isEmpty())
        return;
    // Detached: a second export does not supersede the first, each one's outcome is reported.
    JobRunner::startDetached(
        parent,
        [model = std::move(model), tensor, path](const JobControl&) { return run(model, tensor, path); },
        [parent, name, path, failed = std::move(failed)](const Outcome& outcome) {
            auto* box = new QMessageBox(outcome ? QMessageBox::Information : QMessageBox::Warning,
                                        outcome ? tr("Tensor Exported") : tr("Export Failed"),
                                        outcome ? tr("%1 was written to %2.").arg(name, path)
                                                : tr("%1 could not be exported.").arg(name),
                                        QMessageBox::Ok, parent);
            box->setInformativeText(outcome ? outcome->note : outcome.error().toString());
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            if (!outcome && failed)
                failed(outcome.error());
        });
}

} // namespace ts::ui
