#include "common/TableExport.h"

#include <QAbstractItemModel>
#include <QFileDialog>
#include <QMessageBox>
#include <QSaveFile>

namespace ts::ui {
namespace {

QByteArray csvCell(QString text)
{
    bool isNumber = false;
    text.toDouble(&isNumber);
    static const QString kFormulaStart = QStringLiteral("=+-@\t\r");
    if (!isNumber && !text.isEmpty() && kFormulaStart.contains(text.front()))
        text.prepend(QLatin1Char('\''));
    if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
        text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r'))) {
        text.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        text = QLatin1Char('"') + text + QLatin1Char('"');
    }
    return text.toUtf8();
}

} // namespace

QByteArray TableExport::csv(const QAbstractItemModel& model)
{
    QByteArray out;
    const int columns = model.columnCount();
    for (int c = 0; c < columns; ++c) {
        if (c)
            out += ',';
        out += csvCell(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    }
    out += "\r\n";
    for (int r = 0; r < model.rowCount(); ++r) {
        for (int c = 0; c < columns; ++c) {
            if (c)
                out += ',';
            out += csvCell(model.index(r, c).data(Qt::DisplayRole).toString());
        }
        out += "\r\n";
    }
    return out;
}

QString TableExport::writeFile(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
    return {};
}

bool TableExport::saveAs(QWidget* parent, const QString& title, const QString& suggestedName,
                         const QString& filter, const QByteArray& bytes)
{
    const QString path = QFileDialog::getSaveFileName(parent, title, suggestedName, filter);
    if (path.isEmpty())
        return false;
    const QString error = writeFile(path, bytes);
    if (!error.isEmpty()) {
        QMessageBox::warning(parent, title, error);
        return false;
    }
    return true;
}

} // namespace ts::ui
