#pragma once

#include <QString>

namespace ts::ui {

// Item views and labels lay out every character they are given, and a header can hold a 10 MB
// tensor name or a 90 MB metadata value: what reaches a view is cut to these lengths.
inline constexpr qsizetype kItemTextChars = 400;
inline constexpr qsizetype kToolTipChars = 3000;
// A text view shows at most this much of one value (0.3 s to lay out, measured offscreen).
inline constexpr qsizetype kTextViewChars = 256 * 1024;
// Longer text wraps anywhere: looking for word boundaries in a run without spaces is quadratic
// (256 K characters took 18 s in a QPlainTextEdit, wrapping anywhere 0.3 s).
inline constexpr qsizetype kWordWrapChars = 16 * 1024;

// One line for a cell or a label: newlines shown as U+23CE, tabs as spaces, cut past
// kItemTextChars with the number of characters left out.
QString itemText(const QString& text);
// At most kToolTipChars characters, line breaks kept.
QString toolTipText(const QString& text);

} // namespace ts::ui
