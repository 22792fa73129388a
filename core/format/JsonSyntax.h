#pragma once

#include <QStringView>

namespace ts {

// Qt's JSON parser gives up past this depth; a text deeper than it is not JSON to the editor.
inline constexpr int kQtJsonDepthLimit = 1024;

// True when `text` is exactly one JSON value (RFC 8259, whitespace around it allowed) nested at
// most `maxDepth` containers deep. Checked in one pass without building the value: classifying a
// 100 MB metadata value with QJsonDocument costs about 80 bytes of DOM per byte of text.
// Strings are taken as leniently as Qt's parser takes them (raw control characters, unknown
// escapes), numbers a double cannot hold are refused as Qt refuses them; but Qt also takes "1."
// and ".5", which this does not.
bool isJsonText(QStringView text, int maxDepth = kQtJsonDepthLimit);

} // namespace ts
