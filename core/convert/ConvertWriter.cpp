#include "convert/ConvertWriter.h"

#include "convert/ConvertingSource.h"
#include "write/AtomicFile.h"
#include "write/InputFiles.h"
#include "write/SafetensorsWriter.h"
#include "write/StagingLock.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ts {
namespace {

// Python's json.dumps with ensure_ascii=True: non-ASCII as \uXXXX (surrogate pairs included).
void appendPythonJsonString(QByteArray& out, const QString& text)
{
    static const char hex[] = "0123456789abcdef";
    out.append('"');
    for (const QChar qc : text) {
        const char16_t c = qc.unicode();
        switch (c) {
        case u'"':
            out.append("\\\"");
            break;
        case u'\\':
            out.append("\\\\");
            break;
        case u'\n':
            out.append("\\n");
            break;
        case u'\r':
            out.append("\\r");
            break;
        case u'\t':
            out.append("\\t");
            break;
        case u'\b':
            out.append("\\b");
            break;
        case u'\f':
            out.append("\\f");
            break;
        default:
            if (c < 0x20 || c > 0x7e) {
                out.append("\\u");
                for (int shift = 12; shift >= 0; shift -= 4)
                    out.append(hex[(c >> shift) & 15]);
            } else {
                out.append(static_cast<char>(c));
            }
        }
    }
    out.append('"');
}

// Same file on disk, not same spelling: a hard link or a symlink to an input is the input.
Result<void> refuseInput(const ConvertPlan& plan, const QString& path)
{
    return InputFiles(plan.inputFiles)
        .refuseOverwrite(path, QStringLiteral("convert never writes over its input, choose another -o"));
}

Result<void> writeOne(const ConvertPlan& plan, const std::vector<std::size_t>& which, const QString& path,
                      const ConvertOptions& options, const JobControl& control)
{
    if (auto r = refuseInput(plan, path); !r)
        return r;
    std::vector<WriterTensor> tensors;
    tensors.reserve(which.size());
    for (const std::size_t i : which) {
        const PlannedTensor& t = plan.tensors[i];
        WriterTensor w{t.name, t.to, t.shape, t.input};
        if (t.converts()) {
            auto source = std::make_shared<const ConvertingSource>(
                t.input, t.from, t.to, t.elements, t.sourceFile + QStringLiteral(": ") + t.sourceName);
            w.data = TensorLocation{source, 0, source->size()};
        }
        tensors.push_back(std::move(w));
    }
    WriteOptions writeOptions;
    writeOptions.headerSlack = options.headerSlack;
    writeOptions.control = control; // each shard adds to the whole conversion's count
    return SafetensorsWriter::write(path, std::move(tensors), plan.metadata, writeOptions);
}

} // namespace

QString ConvertWriter::shardFileName(std::size_t index, std::size_t count)
{
    return QStringLiteral("model-%1-of-%2.safetensors")
        .arg(static_cast<qulonglong>(index + 1), 5, 10, QLatin1Char('0'))
        .arg(static_cast<qulonglong>(count), 5, 10, QLatin1Char('0'));
}

std::vector<std::vector<std::size_t>> ConvertWriter::splitIntoShards(const ConvertPlan& plan,
                                                                     std::uint64_t maxBytes)
{
    std::vector<std::vector<std::size_t>> shards;
    std::vector<std::size_t> current;
    std::uint64_t currentSize = 0;
    for (std::size_t i = 0; i < plan.tensors.size(); ++i) {
        const std::uint64_t size = plan.tensors[i].bytesAfter();
        if (size > maxBytes) {
            shards.push_back({i});
            continue;
        }
        if (currentSize + size > maxBytes && !current.empty()) {
            shards.push_back(std::move(current));
            current.clear();
            currentSize = 0;
        }
        current.push_back(i);
        currentSize += size;
    }
    if (!current.empty())
        shards.push_back(std::move(current));
    return shards;
}

QByteArray ConvertWriter::indexJson(std::uint64_t totalSize,
                                    const std::vector<std::pair<QString, QString>>& weightMap)
{
    auto sorted = weightMap;
    // sort_keys orders by code point, which is UTF-8 byte order.
    std::sort(sorted.begin(), sorted.end(),
              [](const auto& a, const auto& b) { return a.first.toUtf8() < b.first.toUtf8(); });
    QByteArray json = "{\n  \"metadata\": {\n    \"total_size\": ";
    json += QByteArray::number(static_cast<qulonglong>(totalSize));
    json += "\n  },\n  \"weight_map\": {";
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        json += i == 0 ? "\n    " : ",\n    ";
        appendPythonJsonString(json, sorted[i].first);
        json += ": ";
        appendPythonJsonString(json, sorted[i].second);
    }
    json += sorted.empty() ? "}\n}\n" : "\n  }\n}\n";
    return json;
}

Result<QStringList> ConvertWriter::write(const ConvertPlan& plan, const QString& out,
                                         const ConvertOptions& options, const JobControl& control)
{
    control.progress.begin(plan.bytesAfter());
    if (!options.shardSize) {
        std::vector<std::size_t> all(plan.tensors.size());
        for (std::size_t i = 0; i < all.size(); ++i)
            all[i] = i;
        if (auto r = writeOne(plan, all, out, options, control); !r)
            return r.error();
        return QStringList{out};
    }
    const QFileInfo folder(out);
    if (folder.exists() && !folder.isDir()) {
        return makeError(
            ErrorCode::NotAFile, out,
            QStringLiteral("is a file; with --shard-size, -o names the folder for the shards and the index"));
    }
    const auto shards = splitIntoShards(plan, *options.shardSize);
    const QString indexPath = QDir(out).filePath(QStringLiteral("model.safetensors.index.json"));
    // Every name this run puts in place is checked before anything is written: a refusal after
    // the shards were renamed into place would leave them beside an index that is not theirs.
    for (std::size_t s = 0; s < shards.size(); ++s) {
        if (auto r = refuseInput(plan, QDir(out).filePath(shardFileName(s, shards.size()))); !r)
            return r.error();
    }
    if (auto r = refuseInput(plan, indexPath); !r)
        return r.error();
    if (!QDir().mkpath(out))
        return makeError(ErrorCode::IoError, out, QStringLiteral("cannot create the output folder"));
    // Every shard is first written (atomically) under a hidden staging name, and only when all
    // are complete are they renamed into place, then the index written. So a cancel or an error
    // half-way leaves neither a partial set of shards without an index nor a mix of this run's
    // shards with an earlier run's: the staged files are removed and the folder is as before.
    // A run killed half-way could not clean up: its files are removed now (StagingLock).
    StagingLock::removeAbandoned(out);
    Result<StagingLock> lock = StagingLock::acquire(out);
    if (!lock)
        return lock.error();
    const QString stagePrefix = lock->prefix();
    QStringList staged;
    const auto discardStaged = [&staged] {
        for (const QString& path : std::as_const(staged))
            QFile::remove(path);
    };
    std::vector<std::pair<QString, QString>> weightMap;
    for (std::size_t s = 0; s < shards.size(); ++s) {
        const QString name = shardFileName(s, shards.size());
        const QString stage = QDir(out).filePath(stagePrefix + name);
        if (auto r = writeOne(plan, shards[s], stage, options, control); !r) {
            discardStaged();
            return r.error();
        }
        staged << stage;
        for (const std::size_t i : shards[s])
            weightMap.emplace_back(plan.tensors[i].name, name);
    }
    QStringList written;
    for (std::size_t s = 0; s < shards.size(); ++s) {
        const QString path = QDir(out).filePath(shardFileName(s, shards.size()));
        if (::rename(QFile::encodeName(staged[static_cast<qsizetype>(s)]).constData(),
                     QFile::encodeName(path).constData()) != 0) {
            const int err = errno;
            staged = staged.mid(static_cast<qsizetype>(s));
            discardStaged();
            return makeError(ErrorCode::IoError, path,
                             QStringLiteral("cannot move the finished shard into place: %1")
                                 .arg(QString::fromLocal8Bit(std::strerror(err))));
        }
        written << path;
    }
    // The index's atomic write below fsyncs this folder after its rename, which makes the shard
    // renames above durable too.
    const QByteArray json = indexJson(plan.bytesAfter(), weightMap);
    AtomicFile index(indexPath);
    if (auto r = index.open(); !r)
        return r.error();
    if (auto r =
            index.write(std::as_bytes(std::span(json.constData(), static_cast<std::size_t>(json.size()))));
        !r)
        return r.error();
    if (auto r = index.commit(); !r)
        return r.error();
    written << indexPath;
    return written;
}

} // namespace ts
