#include "document/LoadResult.h"

#include "format/RawHeader.h"
#include "io/ReadScope.h"
#include "io/RemoteLocation.h"
#include "io/SourceOpener.h"
#include "metadata/JsonPretty.h"
#include "write/SaveJournal.h"

#include <QFileInfo>

namespace ts::ui {
namespace {

void setHeaderText(LoadResult& result, const QByteArray& raw)
{
    PrettyJson pretty = prettyJson(raw);
    result.headerText = std::move(pretty.text);
    result.headerTextCut = pretty.cut;
    result.headerTextShortened = pretty.clippedLines || pretty.deepNesting;
}

void setHeaderText(LoadResult& result, const RawHeader& raw)
{
    result.headerSource = raw.source;
    result.headerBytesTotal = raw.declaredBytes;
    result.headerBytesShown = static_cast<std::uint64_t>(raw.bytes.size());
    if (raw.preformatted) {
        result.headerText = raw.bytes; // already laid out (and bounded) by the format
        result.headerIsDisassembly = true;
        return;
    }
    setHeaderText(result, raw.bytes);
}

} // namespace

LoadResult loadModel(const QString& path, const JobControl& control)
{
    // A URL's reads wait for a server: the token ends the wait, and what arrives is the job's
    // progress (the loading page shows it).
    const ReadScope scope(control.cancel, control.progress);
    LoadResult result;
    result.path = path;
    // Reading never writes: a journal an interrupted save left is only reported, and the
    // document's banner lets the user restore or delete it.
    auto noteJournal = [&result](const QString& file) {
        JournalInspection j = SaveJournal::inspect(file);
        if (j.exists())
            result.journals.push_back(std::move(j));
    };
    auto opened = Checkpoint::open(path);
    if (opened) {
        result.model = opened.value();
        for (const CheckpointPart& part : result.model->parts()) {
            if (!part.localPath.isEmpty())
                noteJournal(part.localPath);
        }
        result.tree = std::make_shared<const NameTree>(*result.model);
        result.profile = std::make_shared<const ModelProfile>(ModelProfiler::profile(*result.model, path));
        // A server's header is laid out now, while the job may wait for it; a local one only if
        // the Header page is ever shown.
        if (RemoteLocation::isRemote(path))
            readHeaderText(result);
        else
            result.headerDeferred = true;
        return result;
    }
    result.error = opened.error();
    if (RemoteLocation::isRemote(path)) {
        // What the header says, when the server gave a file that is not a valid model: the
        // probe's bytes only (a header announcing 200 MB is not downloaded to be shown).
        if (opened.error().code < ErrorCode::IoError && !RemoteLocation::isIndex(path)) {
            if (auto opener = SourceOpener::installed()) {
                if (auto source = opener->open(RemoteLocation::normalized(path)))
                    setHeaderText(result, RawHeader::ofSafetensors(**source, kRemoteHeaderShown));
            }
        }
        return result;
    }
    // Show what can be read: the file named by the error when it is one (a broken shard), else
    // what was opened.
    QString file = opened.error().file;
    if (file.isEmpty() || !QFileInfo(file).isFile())
        file = path;
    if (QFileInfo(file).isFile()) {
        setHeaderText(result, RawHeader::ofFile(file, kRawHeaderCap));
        // A header torn by an interrupted save fails to open: the journal is how to fix it.
        if (!file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            noteJournal(file);
    }
    return result;
}

void readHeaderText(LoadResult& result)
{
    result.headerDeferred = false;
    if (result.model)
        setHeaderText(result, result.model->rawHeader(kRawHeaderCap));
}

} // namespace ts::ui
