#include "io/RemoteLocation.h"

#include <QStringList>
#include <QUrl>

namespace ts {

bool RemoteLocation::isRemote(const QString& location)
{
    return location.startsWith(QLatin1String("https://"), Qt::CaseInsensitive) ||
           location.startsWith(QLatin1String("http://"), Qt::CaseInsensitive);
}

QString RemoteLocation::redacted(const QString& location)
{
    const QUrl url(location);
    if (!url.isValid())
        return location;
    return url.toString(QUrl::RemoveUserInfo);
}

QString RemoteLocation::fileName(const QString& location)
{
    const QUrl url(location);
    const QString name = url.fileName(QUrl::FullyDecoded);
    return name.isEmpty() ? redacted(location) : name;
}

QString RemoteLocation::folderName(const QString& location)
{
    const QUrl url(location);
    QStringList segments = url.path(QUrl::FullyDecoded).split(QLatin1Char('/'), Qt::SkipEmptyParts);
    const int resolve = static_cast<int>(segments.indexOf(QStringLiteral("resolve")));
    if (resolve >= 2)
        return segments[resolve - 1];
    if (segments.size() >= 2)
        return segments[segments.size() - 2];
    return url.host();
}

QString RemoteLocation::sibling(const QString& location, const QString& name)
{
    QUrl url(location);
    url.setQuery(QString());
    url.setFragment(QString());
    // A relative reference resolves against the base's folder; the name is encoded as a path
    // segment so "#" or "?" in a shard name stay part of the name.
    QUrl relative;
    relative.setPath(QStringLiteral("./") + name, QUrl::DecodedMode); // "./": a "c:" stays a name

    return url.resolved(relative).toString();
}

QString RemoteLocation::normalized(const QString& location)
{
    QUrl url(location);
    const QString host = url.host().toLower();
    if (host != QLatin1String("huggingface.co") && host != QLatin1String("hf.co") &&
        !host.endsWith(QLatin1String(".huggingface.co")))
        return location;
    // A Hub page URL (.../blob/REV/FILE) is what a browser's address bar shows; its bytes are at
    // .../resolve/REV/FILE. Models are /ORG/REPO/blob/..., datasets and spaces one level deeper.
    QStringList segments = url.path().split(QLatin1Char('/'));
    const bool typed = segments.size() > 1 &&
                       (segments[1] == QLatin1String("datasets") || segments[1] == QLatin1String("spaces"));
    const int at = typed ? 4 : 3;
    if (segments.size() <= at + 2 || segments[at] != QLatin1String("blob"))
        return location;
    segments[at] = QStringLiteral("resolve");
    url.setPath(segments.join(QLatin1Char('/')));
    return url.toString();
}

bool RemoteLocation::isIndex(const QString& location)
{
    return QUrl(location).path().endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

} // namespace ts
