#include "document/LoadResult.h"

#include "format/HeaderParser.h"
#include "io/MappedFile.h"
#include "metadata/JsonPretty.h"
#include "write/SaveJournal.h"

#include <QFile>
#include <QFileInfo>
#include <QtEndian>

namespace ts::ui {
namespace {

void setHeaderText(LoadResult& result, const QByteArray& raw)
{
    PrettyJson pretty = prettyJson(raw);
    result.headerText = std::move(pretty.text);
    result.headerTextCut = pretty.cut;
    result.headerTextShortened = pretty.clippedLines || pretty.deepNesting;
}

void readHeaderText(LoadResult& result, const QString& file)
{
    result.headerSource = file;
    if (file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        // A shard index is itself JSON: show it.
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return;
        const QByteArray text = f.read(static_cast<qint64>(kRawHeaderCap));
        result.headerBytesTotal = static_cast<std::uint64_t>(f.size());
        result.headerBytesShown = static_cast<std::uint64_t>(text.size());
        setHeaderText(result, text);
        return;
    }
    auto source = MappedFile::open(file);
    if (!source)
        return;
    const ByteSource& bytes = *source.value();
    if (bytes.size() >= 8) {
        std::array<std::byte, 8> prefix{};
        if (bytes.read(0, prefix))
            result.headerBytesTotal = qFromLittleEndian<quint64>(prefix.data());
    }
    const QByteArray raw = readRawHeader(bytes, kRawHeaderCap);
    result.headerBytesShown = static_cast<std::uint64_t>(raw.size());
    setHeaderText(result, raw);
}

} // namespace

LoadResult loadModel(const QString& path)
{
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
        for (const auto& shard : result.model->shards())
            noteJournal(shard->path());
        result.tree = std::make_shared<const NameTree>(*result.model);
        if (!result.model->shards().empty())
            readHeaderText(result, result.model->shards().front()->path());
        return result;
    }
    result.error = opened.error();
    // Show what can be read: the file named by the error when it is one (a broken shard), else
    // what was opened.
    QString file = opened.error().file;
    if (file.isEmpty() || !QFileInfo(file).isFile())
        file = path;
    if (QFileInfo(file).isFile()) {
        readHeaderText(result, file);
        // A header torn by an interrupted save fails to open: the journal is how to fix it.
        if (!file.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            noteJournal(file);
    }
    return result;
}

} // namespace ts::ui
