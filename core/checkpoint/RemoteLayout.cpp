#include "checkpoint/RemoteLayout.h"

#include "io/RemoteLocation.h"
#include "io/SourceOpener.h"

#include <QUrl>

namespace ts {

Result<CheckpointLayout> RemoteLayout::locate(const QString& given)
{
    const QString url = RemoteLocation::normalized(given);
    const QString shown = RemoteLocation::redacted(url);
    const QUrl parsed(url, QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return makeError(ErrorCode::InvalidArgument, shown, QStringLiteral("this is not a valid URL"));
    if (parsed.path().isEmpty() || parsed.path().endsWith(QLatin1Char('/')))
        return makeError(ErrorCode::NotAFile, shown,
                         QStringLiteral("the URL names a folder; a server cannot be asked what a folder "
                                        "holds: give the URL of a .safetensors file or of its "
                                        "model.safetensors.index.json"));
    CheckpointLayout layout;
    layout.origin = shown; // what is shown and remembered; the parts keep what reading needs
    if (!RemoteLocation::isIndex(url)) {
        layout.kind = Checkpoint::Kind::SingleFile;
        layout.parts << url;
        return layout;
    }
    auto opener = SourceOpener::forLocation(url);
    if (!opener)
        return opener.error();
    auto json = opener.value()->fetch(url, kMaxShardIndexSize);
    if (!json)
        return json.error();
    auto index = ShardIndex::parse(json.value(), shown);
    if (!index)
        return index.error();
    layout.kind = Checkpoint::Kind::IndexedShards;
    layout.indexLocation = shown;
    for (const QString& shard : index->shardFiles)
        layout.parts << RemoteLocation::sibling(url, shard);
    layout.shardIndex = std::move(index.value());
    return layout;
}

} // namespace ts
