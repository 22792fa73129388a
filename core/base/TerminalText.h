#pragma once

#include <QString>
#include <QStringView>

namespace ts {

// Text for a terminal. A file's tensor names and metadata, and even its path, can hold ESC, BEL,
// CR or line breaks: printed raw they set the window title, clear the screen or forge rows of a
// listing, and bidi overrides reorder what is shown. JSON output needs none of this (JSON escapes
// control characters itself); text output passes every such value through terminalSafe().
//
// Escaped: the backslash as \\ (so that an escaped form cannot be forged by a name that spells
// it); tab, line feed and carriage return as \t \n \r; the other C0 controls and DEL as \xHH;
// the C1 controls U+0080..U+009F, the line and paragraph separators U+2028/U+2029 and the bidi
// embeddings, overrides and isolates U+202A..U+202E, U+2066..U+2069 as \uHHHH. Everything else,
// other scripts and emoji included, is shown as it is.
QString terminalSafe(QStringView value);
// The same, sharing `value`'s data when nothing needs escaping.
QString terminalSafe(const QString& value);

// The last guard of the CLI's text output, for a whole composed text whose values were already
// escaped: the same characters are escaped except that a line feed stays a line break and a
// backslash stays a backslash. A value that reaches it unescaped cannot drive the terminal, but
// may still forge a line: escape values with terminalSafe().
QString terminalSafeLines(QStringView text);
QString terminalSafeLines(const QString& text);

// How many terminal columns `text` takes: what a table pads by. East Asian wide and fullwidth
// characters (CJK ideographs, kana, Hangul syllables, fullwidth forms) and the pictographic emoji
// take two columns, combining marks and format characters (a zero-width joiner) none, a character
// outside the Basic Multilingual Plane one or two, never the two UTF-16 units it is stored in.
// Padded by UTF-16 length, a column of Chinese tensor names pushed every cell after it out of line.
qsizetype terminalWidth(QStringView text);

} // namespace ts
