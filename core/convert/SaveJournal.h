#pragma once

#include "Result.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace ts {

// What recovery found next to a model file.
enum class RecoveryOutcome {
    NoJournal,        // nothing was interrupted
    DiscardedJournal, // the journal was incomplete, so the file had not been touched yet
    AlreadyIntact,    // the file still had its old header; only the journal was left over
    RolledBack,       // the old header was written back: the file is as it was before the save
};

// The crash-safety record of an in-place metadata save: a sidecar file beside the model
// (".<name>.tensorscope-journal") holding the old prefix and header. It is written and synced
// before the first byte of the model changes and removed after the new header is synced, so
// a journal that exists and is complete means "a save may have been interrupted: put the old
// header back".
class SaveJournal {
public:
    static QString pathFor(const QString& target);

    // Writes the journal for `target` and syncs it and its folder.
    static Result<void> write(const QString& target, const QByteArray& oldHeader, std::uint64_t fileSize);
    // Deletes the journal and syncs the folder: the save is then final.
    static Result<void> remove(const QString& target);
    // Rolls back an interrupted save of `target`, if there was one.
    static Result<RecoveryOutcome> recover(const QString& target);
};

// Call before opening a model (a .safetensors file, an index .json or a folder): finishes what an
// interrupted in-place metadata save left behind, so the file is byte-identical to before it.
Result<RecoveryOutcome> recoverInterruptedSave(const QString& path);

} // namespace ts
