#include "write/SaveLeftovers.h"

#include "base/Format.h"
#include "write/AtomicFile.h"
#include "write/SaveJournal.h"

#include <QFileInfo>

namespace ts {

std::vector<Diagnostic> SaveLeftovers::diagnose(const QString& file)
{
    std::vector<Diagnostic> out;
    const JournalInspection journal = SaveJournal::inspect(file);
    if (journal.exists()) {
        const QString name = QFileInfo(journal.file).fileName();
        const QString action =
            journal.restorable()
                ? QStringLiteral("; `tensorscope-cli recover %1` restores it, `--discard` keeps "
                                 "the file as it is")
                      .arg(name)
                : QStringLiteral("; `tensorscope-cli recover %1 --discard` deletes it").arg(name);
        out.push_back(
            Diagnostic{QStringLiteral("InterruptedSave"),
                       journal.state == JournalInspection::State::Torn ? Severity::Error : Severity::Warning,
                       journal.detail + action,
                       {},
                       journal.restorable() ? std::optional<std::uint64_t>(0) : std::nullopt});
    }
    for (const auto& [path, size] : AtomicFile::staleTemporaries(file)) {
        out.push_back(
            Diagnostic{QStringLiteral("LeftoverTemporary"),
                       Severity::Warning,
                       QStringLiteral("%1 (%2) is the unfinished temporary file of a save that was killed; "
                                      "`tensorscope-cli recover %3 --remove-leftovers` deletes it")
                           .arg(QFileInfo(path).fileName(), formatBytes(size), QFileInfo(file).fileName()),
                       {},
                       std::nullopt});
    }
    return out;
}

} // namespace ts
