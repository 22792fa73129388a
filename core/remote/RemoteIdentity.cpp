#include "remote/RemoteIdentity.h"

#include <QList>

namespace ts::remote {
namespace {

std::optional<std::uint64_t> number(const QByteArray& text)
{
    bool ok = false;
    const qulonglong v = text.trimmed().toULongLong(&ok);
    if (!ok || text.trimmed().startsWith('+') || text.trimmed().startsWith('-'))
        return std::nullopt;
    return static_cast<std::uint64_t>(v);
}

} // namespace

QByteArray RemoteIdentity::cacheValidator() const
{
    if (hasStrongEtag())
        return "etag " + etag;
    if (!lastModified.isEmpty())
        return "modified " + lastModified;
    return {};
}

QByteArray RemoteIdentity::mismatch(const RemoteIdentity& response) const
{
    if (response.size != size)
        return "its size went from " + QByteArray::number(size) + " to " + QByteArray::number(response.size) +
               " bytes";
    // The validator the file was opened with must come back unchanged: a server (or a CDN edge)
    // that stops sending it can no longer vouch that the bytes are the same file's.
    if (!etag.isEmpty() && response.etag != etag)
        return "its ETag went from " + etag + " to " + (response.etag.isEmpty() ? "none" : response.etag);
    if (etag.isEmpty() && !lastModified.isEmpty() && response.lastModified != lastModified)
        return "its Last-Modified went from " + lastModified + " to " +
               (response.lastModified.isEmpty() ? "none" : response.lastModified);
    return {};
}

std::optional<ContentRange> ContentRange::parse(const QByteArray& header)
{
    const QByteArray h = header.trimmed();
    if (!h.startsWith("bytes "))
        return std::nullopt;
    const QByteArray spec = h.mid(6).trimmed();
    const qsizetype dash = spec.indexOf('-');
    const qsizetype slash = spec.indexOf('/');
    if (dash <= 0 || slash <= dash)
        return std::nullopt;
    const auto first = number(spec.left(dash));
    const auto last = number(spec.mid(dash + 1, slash - dash - 1));
    const auto total = number(spec.mid(slash + 1));
    if (!first || !last || !total || *last < *first || *last >= *total)
        return std::nullopt;
    return ContentRange{*first, *last, *total};
}

std::optional<std::uint64_t> ContentRange::unsatisfiedTotal(const QByteArray& header)
{
    const QByteArray h = header.trimmed();
    if (!h.startsWith("bytes */"))
        return std::nullopt;
    return number(h.mid(8));
}

} // namespace ts::remote
