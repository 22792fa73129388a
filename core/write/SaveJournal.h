#pragma once

#include "base/Result.h"

#include <QByteArray>
#include <QString>

#include <cstdint>

namespace ts {

// What a journal beside a model file says, found without writing anything.
struct JournalInspection {
    enum class State {
        None,        // no journal beside the file
        Unreadable,  // a journal name that cannot be read as a file (permissions, a symlink, a folder, too
                     // large)
        Malformed,   // not a complete journal: a save that stopped before touching the model, or a forgery
        OtherFile,   // recorded for another file (device and inode differ): never applied
        SizeChanged, // the file has another size now: never applied
        Mismatch,    // the header region is not the recorded before/after of an in-place save: never applied
        Untouched,   // the file holds the header from before the save: nothing to restore
        Completed,   // the file holds the header the save wrote; only the journal was left behind
        Torn,        // the header is a mix of before and after: the save was cut mid-write
    };
    State state = State::None;
    QString file; // the model file the journal is beside (symlinks resolved)
    QString journalPath;
    std::uint64_t regionLength = 0; // bytes a restore would write, from byte 0
    QString detail;                 // one sentence: what was found and what a restore would do

    bool exists() const { return state != State::None; }
    // A restore writes the header from before the save back.
    bool restorable() const { return state == State::Completed || state == State::Torn; }
    // The journal belongs to this file and describes it exactly (restore or no-op).
    bool matches() const { return restorable() || state == State::Untouched; }
};

// The crash-safety record of an in-place metadata save: a sidecar ".<name>.tensorscope-journal"
// beside the model, written and synced before the model's first byte changes and removed after
// the new header is synced. A model folder comes from strangers, so a journal found there is
// hostile input: it is bound to the one file it protects (device and inode, size, and the header
// region before and after the save with their SHA-256), it can only put back bytes inside that
// file's header region [0, 8 + N), both its before and after must parse as headers of that file
// with the same tensors (a restore can change metadata and padding, nothing else), and the
// region on disk must be a byte-wise mix of the two. Reading never applies one: inspect() only
// reports; restore() is an explicit act (tensorscope-cli recover, the window's banner).
class SaveJournal {
public:
    static QString pathFor(const QString& target);
    // "Completed", "Torn", ...: stable names for scripts.
    static QString stateName(JournalInspection::State state);

    // Writes the journal for the file open as `fd` at `target`, and syncs it and its folder.
    // `before` and `after` are the header region [0, 8 + N) now and after the save.
    static Result<void> write(int fd, const QString& target, const QByteArray& before,
                              const QByteArray& after);
    // Fails (FileChanged) while anything is at the journal's name of `target`, a link included.
    static Result<void> checkNonePending(const QString& target);
    // Deletes the journal of `target` (never the model) and syncs the folder.
    static Result<void> remove(const QString& target);

    // Reports the journal beside `target` without writing anything.
    static JournalInspection inspect(const QString& target);
    // Puts the header from before an interrupted save back (only when the journal matches the
    // file), then deletes the journal. Untouched: deletes the journal only. Anything else: an
    // error with the inspection's sentence, and nothing is written.
    static Result<JournalInspection> restore(const QString& target);

private:
    static Error pendingError(const QString& target);
    static JournalInspection inspectWith(int fd, const QString& file, QByteArray* before = nullptr);
};

} // namespace ts
