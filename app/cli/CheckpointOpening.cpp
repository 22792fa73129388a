#include "CheckpointOpening.h"

#include "CliOutput.h"

#include "base/TerminalText.h"
#include "write/SaveJournal.h"

#include <QFileInfo>

namespace ts::cli {

QString journalNote(const QString& path, const Error& error)
{
    const QString file = !error.file.isEmpty() && QFileInfo(error.file).isFile() ? error.file : path;
    if (!QFileInfo(file).isFile())
        return {};
    const JournalInspection journal = SaveJournal::inspect(file);
    if (!journal.exists())
        return {};
    return QStringLiteral("%1: %2 [InterruptedSave]").arg(file, journal.detail);
}

std::shared_ptr<const Checkpoint> openForReading(const QString& path, bool reportLeftovers, int* exitStatus,
                                                 const CheckpointOpenOptions& options)
{
    auto opened = Checkpoint::open(path, options);
    if (!opened) {
        err(opened.error());
        if (const QString note = journalNote(path, opened.error()); !note.isEmpty())
            err(terminalSafe(note));
        *exitStatus = exitFor(opened.error());
        return nullptr;
    }
    if (reportLeftovers) {
        for (const Diagnostic& d : (*opened)->warnings()) {
            if (d.code == QLatin1String("InterruptedSave") || d.code == QLatin1String("LeftoverTemporary"))
                err(QStringLiteral("%1: %2 [%3]").arg(terminalSafe(path), terminalSafe(d.message), d.code));
        }
    }
    *exitStatus = ExitOk;
    return opened.value();
}

} // namespace ts::cli
