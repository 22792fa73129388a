#include "tensor/TensorExport.h"

#include "convert/TensorExporter.h"
#include "io/RemoteLocation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

namespace ts::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ts::ui::TensorExport", text);
}

} // namespace

QFuture<TensorExport::Outcome> TensorExport::start(std::shared_ptr<const Checkpoint> model, int tensor,
                                                   QString path)
{
    return QtConcurrent::run([model = std::move(model), tensor, path = std::move(path)] {
        Outcome outcome;
        const auto format = TensorExporter::formatForPath(path);
        if (!format) {
            outcome.message = tr("%1: choose a .npy or .csv file name.").arg(path);
            return outcome;
        }
        // The save dialog has confirmed replacing an existing file, but never the model's own.
        const auto exported = TensorExporter::exportFromModel(*model, tensor, path, *format);
        outcome.ok = exported.ok();
        outcome.message = exported ? exported->note : exported.error().toString();
        return outcome;
    });
}

void TensorExport::exportWithDialog(QWidget* parent, std::shared_ptr<const Checkpoint> model, int tensor)
{
    if (!model || tensor < 0 || tensor >= static_cast<int>(model->tensors().size()))
        return;
    const QString name = model->tensors()[static_cast<std::size_t>(tensor)].info.name;
    QString suggested = name;
    suggested.replace(QLatin1Char('/'), QLatin1Char('_'));
    // Beside the model, or at home for a model on a server.
    const QString dir =
        RemoteLocation::isRemote(model->path()) ? QDir::homePath() : QFileInfo(model->path()).absolutePath();
    const QString path = QFileDialog::getSaveFileName(
        parent, tr("Export Tensor"), dir + QLatin1Char('/') + suggested + QStringLiteral(".npy"),
        tr("NumPy array (*.npy);;CSV, 1-D and 2-D only (*.csv)"));
    if (path.isEmpty())
        return;
    auto* watcher = new QFutureWatcher<Outcome>(parent);
    QObject::connect(watcher, &QFutureWatcherBase::finished, parent, [watcher, parent, name, path] {
        watcher->deleteLater();
        const Outcome outcome = watcher->result();
        auto* box = new QMessageBox(outcome.ok ? QMessageBox::Information : QMessageBox::Warning,
                                    outcome.ok ? tr("Tensor Exported") : tr("Export Failed"),
                                    outcome.ok ? tr("%1 was written to %2.").arg(name, path)
                                               : tr("%1 could not be exported.").arg(name),
                                    QMessageBox::Ok, parent);
        box->setInformativeText(outcome.message);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    watcher->setFuture(start(std::move(model), tensor, path));
}

} // namespace ts::ui
