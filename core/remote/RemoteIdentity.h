#pragma once

#include <QByteArray>

#include <cstdint>
#include <optional>

namespace ts::remote {

// What a server says about one file in every response: its size (from Content-Range) and its
// validators. Two responses of one read must agree, or the file was replaced between them and
// the bytes would be a blend of two files.
struct RemoteIdentity {
    std::uint64_t size = 0;
    QByteArray etag;         // as sent, quotes and W/ included; empty when none
    QByteArray lastModified; // as sent; empty when none

    bool hasStrongEtag() const { return !etag.isEmpty() && !etag.startsWith("W/"); }
    // A validator good enough to key cached bytes by: a strong ETag, else Last-Modified.
    QByteArray cacheValidator() const;
    // Empty when `response` may be the same file; else what differs, for the error sentence.
    QByteArray mismatch(const RemoteIdentity& response) const;
};

// "bytes 0-99/300000" -> first 0, last 99, total 300000. nullopt for anything else (a "*" total
// too: a size is needed to read a file by ranges).
struct ContentRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
    std::uint64_t total = 0;
    static std::optional<ContentRange> parse(const QByteArray& header);
    // "bytes */0": how a server says an empty file has no bytes to range over.
    static std::optional<std::uint64_t> unsatisfiedTotal(const QByteArray& header);
};

} // namespace ts::remote
