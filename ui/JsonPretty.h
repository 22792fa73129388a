#pragma once

#include <QByteArray>

namespace ts::ui {

// Re-indents JSON text without parsing it: keys keep their order, numbers keep their spelling and
// broken text is still laid out as far as it goes, which is what a user inspecting a header needs.
QByteArray prettyJsonText(const QByteArray& json, int indent = 2);

// True when `text` is a JSON object or array (what metadata values holding configs look like).
bool looksLikeJsonContainer(const QString& text);

} // namespace ts::ui
