#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "format/Metadata.h"
#include "format/SafetensorsFile.h"
#include "write/SaveLock.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <functional>
#include <optional>

namespace ts {

// The points of an in-place save after which a crash leaves a different state on disk. A test
// observer can stop the process at each one to prove every state recovers.
enum class SaveStep {
    JournalSynced, // the old header is safe in the journal; the model is untouched
    HeaderWritten, // the new header is written but not yet synced
    HeaderSynced,  // the new header is on disk; the journal still exists
    JournalRemoved // the save is final
};

enum class SaveMethod { InPlace, FullRewrite };

struct MetadataSaveOptions {
    bool allowInPlace = true;
    // Replace a read-only or hard-linked target anyway (SaveTarget): by a full rewrite, always.
    bool force = false;
    // How long to wait for another process's save of the same file (SaveLock).
    std::chrono::milliseconds lockWait = SaveLock::kDefaultWait;
    std::uint64_t headerSlack = 0; // for a full rewrite; an in-place save needs this much room to spare
    // Full rewrite only: the data buffer's bytes as they are copied (begin() is called with its
    // size), and a cancel between chunks, the target left untouched.
    JobControl control;
    std::function<void(SaveStep)> stepObserver; // in-place only
};

struct MetadataSaveResult {
    SaveMethod method = SaveMethod::FullRewrite;
    std::uint64_t bytesWritten = 0; // to the model (and the journal, for an in-place save)
    QString whyNotInPlace;          // empty for an in-place save
};

// Saves new metadata for an opened file: in place when the new header fits in the old one's
// space (only the header bytes change, behind a journal; see SaveJournal), otherwise by the
// atomic full rewrite of SafetensorsWriter::rewriteMetadata. Either way the data buffer keeps
// its bytes and offsets. The target's policy (symlinks, caches, hard links, read-only files) is
// SaveTarget's; the whole save holds the target's SaveLock, and a target that is the opened file
// and changed on disk since it was opened is never overwritten (FileChanged).
class MetadataSave {
public:
    static Result<MetadataSaveResult> save(const SafetensorsFile& file,
                                           const std::optional<Metadata>& metadata, const QString& target,
                                           const MetadataSaveOptions& options = {});

    // The 8 + N bytes an in-place save would write (same N, padded with spaces), or nullopt when
    // the new header does not fit in N bytes with `slack` to spare.
    static std::optional<QByteArray>
    inPlaceHeader(const Header& header, const std::optional<Metadata>& metadata, std::uint64_t slack = 0);

private:
    static Result<std::uint64_t> saveInPlace(const SafetensorsFile& file, const QString& path,
                                             const QByteArray& newHeader, const MetadataSaveOptions& options);
};

} // namespace ts
