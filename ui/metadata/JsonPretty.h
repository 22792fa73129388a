#pragma once

#include <QByteArray>

namespace ts::ui {

// Bounds on the laid-out text: re-indenting 40 KB of nesting two spaces per level made 4 GB, and
// one 15 MB line (a rank-5M shape) is more than a text layout survives.
inline constexpr qsizetype kPrettyJsonMaxBytes = 16 * 1024 * 1024;
// A text view keeps about 550 bytes per line: 1.8 M short lines took 1 GB and 14 s to show.
inline constexpr qsizetype kPrettyJsonMaxLines = 100000;
inline constexpr qsizetype kPrettyJsonMaxLineBytes = 64 * 1024;
inline constexpr int kPrettyJsonMaxIndentLevels = 32; // deeper levels keep this indentation

struct PrettyJson {
    QByteArray text;
    // Stopped at kPrettyJsonMaxBytes or kPrettyJsonMaxLines; `text` ends with a line saying so.
    bool cut = false;
    bool clippedLines = false; // some line ends in a note instead of its last bytes
    bool deepNesting = false;  // nesting went deeper than the indentation shows
};

// Re-indents JSON text without parsing it: keys keep their order, numbers keep their spelling and
// broken text is still laid out as far as it goes, which is what a user inspecting a header needs.
// Lines longer than kPrettyJsonMaxLineBytes end in a note of what was left out.
PrettyJson prettyJson(const QByteArray& json, int indent = 2);
inline QByteArray prettyJsonText(const QByteArray& json, int indent = 2)
{
    return prettyJson(json, indent).text;
}

// True when `text` is a JSON object or array (what metadata values holding configs look like).
bool looksLikeJsonContainer(const QString& text);

} // namespace ts::ui
