#pragma once

#include <QString>

namespace ts::docs {

// --help text for a terminal, laid out the same way by both executables.
class HelpText {
public:
    static constexpr qsizetype kWidth = 100;     // wrap here, as the hand-written usage did
    static constexpr qsizetype kTermColumn = 26; // option descriptions start here

    // Greedy word wrap from `column`; continuation lines start at `indent`.
    static QString wrap(const QString& text, qsizetype indent, qsizetype column = 0);
    // "  -o, --output OUT        Write to OUT ..." with the text wrapped under itself; the term gets
    // a line of its own when it reaches the text's column. Ends with a newline.
    static QString row(const QString& term, const QString& text);
};

} // namespace ts::docs
