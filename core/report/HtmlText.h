#pragma once

#include <QString>

#include <cstdint>

namespace ts::html {

// Text from a model (names, metadata, paths) for HTML and SVG: control characters and bidi
// overrides made visible first, as the CLI shows them (terminalSafe: a U+202E in a tensor name
// would otherwise reorder what the reader sees), then & < > " ' escaped, so no value can open
// a tag, an attribute or a reference.
QString text(const QString& value);
// The same for a value cut to `maxChars` characters (elideText), with the count of the rest.
QString cut(const QString& value, qsizetype maxChars);
// A value shown with its line breaks (a comment, pretty JSON): escaped as text() except that a
// line feed stays a line break; cut to `maxChars` first.
QString lines(const QString& value, qsizetype maxChars);
// A number with thousands separators, as text.
QString grouped(std::uint64_t n);

} // namespace ts::html
