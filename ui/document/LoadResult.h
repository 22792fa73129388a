#pragma once

#include "architecture/ModelProfile.h"
#include "base/Error.h"
#include "base/JobControl.h"
#include "checkpoint/Checkpoint.h"
#include "checkpoint/NameTree.h"
#include "write/SaveJournal.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>

namespace ts::ui {

// Everything a document needs from one open, computed off the UI thread: the model and its name
// tree when the file is valid, the core's error otherwise, and the header text so a broken file
// still shows what it says. A valid local model's header text is left to readHeaderText(), called
// when the Header page is first shown: laid out, a 100,000-tensor header is 20 MB that most opens
// never look at (and the time to lay it out delayed the summary).
struct LoadResult {
    QString path;
    std::shared_ptr<const Checkpoint> model;
    std::shared_ptr<const NameTree> tree;
    // The architecture, the Hub's parameter count and the config.json check (ModelProfiler).
    std::shared_ptr<const ModelProfile> profile;
    std::optional<Error> error;
    QString headerSource;             // which file the header text comes from
    QByteArray headerText;            // pretty-printed, in file order; bounded (see JsonPretty.h)
    bool headerTextCut = false;       // the text stops before the end of what was read
    bool headerTextShortened = false; // long lines clipped or deep nesting not indented further
    bool headerIsDisassembly = false; // a pickle's opcodes as text (PyTorch checkpoints), not JSON
    bool headerDeferred = false;      // a valid local model: the fields above are for readHeaderText()
    std::uint64_t headerBytesShown = 0;
    std::uint64_t headerBytesTotal = 0; // the length prefix (0 when unreadable)
    // Journals of interrupted saves beside the opened files, reported, never applied by a load.
    std::vector<JournalInspection> journals;

    bool ok() const { return model != nullptr; }
};

// Of a URL that is not a valid model, what the first request brought is shown, no more.
inline constexpr std::uint64_t kRemoteHeaderShown = 100 * 1024 - 8;
// Raw header bytes shown at most; a valid header can be 100 MB, a text view of that helps nobody.
inline constexpr std::uint64_t kRawHeaderCap = 8 * 1024 * 1024;

// Opens `path` (file, folder, index .json, or the URL of a file or an index) the way the window
// does. Thread-safe; blocking. A URL's open waits for a server: the control's token ends the wait,
// and the bytes that came are added to its progress sink.
LoadResult loadModel(const QString& path, const JobControl& control = {});

// Reads and lays out the header text of `result.model` (at most kRawHeaderCap bytes of it) into
// the header fields, and clears headerDeferred. Blocking: a local file's read.
void readHeaderText(LoadResult& result);

} // namespace ts::ui
