#include "format/ShardIndex.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <simdjson.h>

namespace ts {
namespace {

QString fromUtf8(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

Error indexError(const QString& file, const QString& message)
{
    return makeError(ErrorCode::InvalidShardIndex, file, QStringLiteral("invalid shard index: ") + message);
}

} // namespace

Result<ShardIndex> ShardIndex::parse(const QByteArray& json, const QString& file)
{
    if (json.size() > kMaxShardIndexSize)
        return indexError(file, QStringLiteral("it is %1 bytes, more than the %2 allowed")
                                    .arg(json.size())
                                    .arg(kMaxShardIndexSize));
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (auto code = parser.parse(json.constData(), static_cast<std::size_t>(json.size())).get(root);
        code != simdjson::SUCCESS)
        return indexError(
            file,
            QStringLiteral("not valid JSON (%1)").arg(QString::fromLatin1(simdjson::error_message(code))));
    simdjson::dom::object top;
    if (root.get_object().get(top) != simdjson::SUCCESS)
        return indexError(file, QStringLiteral("the top level must be a JSON object"));

    ShardIndex index;
    simdjson::dom::element metadata;
    if (top["metadata"].get(metadata) == simdjson::SUCCESS && !metadata.is_null()) {
        simdjson::dom::object meta;
        if (metadata.get_object().get(meta) != simdjson::SUCCESS)
            return indexError(file, QStringLiteral("\"metadata\" must be an object"));
        for (auto field : meta) {
            if (field.key == "total_size") {
                std::uint64_t total = 0;
                double asDouble = 0;
                if (field.value.get_uint64().get(total) == simdjson::SUCCESS)
                    index.totalSize = total;
                else if (field.value.get_double().get(asDouble) == simdjson::SUCCESS && asDouble >= 0 &&
                         asDouble < 1.8e19 &&
                         asDouble == static_cast<double>(static_cast<std::uint64_t>(asDouble)))
                    index.totalSize = static_cast<std::uint64_t>(asDouble); // some writers emit 1.2e10
                else
                    return indexError(
                        file, QStringLiteral("\"metadata.total_size\" must be a non-negative integer"));
            } else {
                index.otherMetadata.emplace_back(fromUtf8(field.key),
                                                 QString::fromStdString(simdjson::minify(field.value)));
            }
        }
    }
    simdjson::dom::object weights;
    if (top["weight_map"].get_object().get(weights) != simdjson::SUCCESS)
        return indexError(file, QStringLiteral("it has no \"weight_map\" object"));
    QHash<QString, int> seenShard;
    QHash<QString, int> seenTensor;
    for (auto field : weights) {
        std::string_view shardText;
        const QString name = fromUtf8(field.key);
        if (field.value.get_string().get(shardText) != simdjson::SUCCESS)
            return indexError(file,
                              QStringLiteral("weight_map entry \"%1\" must be a file name string").arg(name));
        const QString shard = fromUtf8(shardText);
        if (shard.isEmpty() || shard.contains(QLatin1Char('/')) || shard.contains(QLatin1Char('\\')) ||
            shard == QLatin1String("..") || shard == QLatin1String(".") || shard.contains(QChar(0))) {
            return indexError(file,
                              QStringLiteral("tensor \"%1\" points to \"%2\", which is not a plain file name "
                                             "in the index's folder")
                                  .arg(name, shard));
        }
        if (seenTensor.contains(name))
            return indexError(file, QStringLiteral("tensor \"%1\" is listed twice in weight_map").arg(name));
        seenTensor.insert(name, 1);
        index.weightMap.emplace_back(name, shard);
        if (!seenShard.contains(shard)) {
            if (index.shardFiles.size() == kMaxShardFiles) {
                return makeError(
                    ErrorCode::LimitExceeded, file,
                    QStringLiteral("the index names more than %1 shard files; Tensorscope opens at most "
                                   "that many")
                        .arg(kMaxShardFiles));
            }
            seenShard.insert(shard, 1);
            index.shardFiles.push_back(shard);
        }
    }
    return index;
}

Result<ShardIndex> ShardIndex::load(const QString& path)
{
    QFile f(path);
    const QFileInfo info(path);
    // A named pipe would block open() until a writer comes; a device never ends.
    if (info.exists() && !info.isFile())
        return makeError(ErrorCode::NotAFile, path,
                         QStringLiteral("is not a regular file; a shard index must be one"));
    if (info.size() > kMaxShardIndexSize)
        return indexError(path, QStringLiteral("it is larger than %1 bytes").arg(kMaxShardIndexSize));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::IoError, path,
                         QStringLiteral("cannot read the index: ") + f.errorString());
    return parse(f.read(kMaxShardIndexSize + 1), path);
}

} // namespace ts
