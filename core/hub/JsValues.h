#pragma once

#include <QJsonValue>
#include <QString>

#include <optional>

namespace ts::js {

// The few JavaScript semantics the Hub's parameter count depends on, so that a config.json or a
// metadata value that is not what its author meant is read the way huggingface.js reads it.

// JavaScript truthiness: false for null, absent, false, 0, NaN and "".
bool truthy(const QJsonValue& value);
// `value?.toLowerCase()` for a string; nullopt for anything else (the Hub's code would not get a
// string either).
std::optional<QString> lowerString(const QJsonValue& value);
// A JSON number, or nullopt.
std::optional<double> number(const QJsonValue& value);
// parseInt(text) with no radix: leading white space, an optional sign, "0x" for hexadecimal,
// then digits up to the first non-digit. nullopt where parseInt gives NaN. Saturates far above
// any parameter count instead of losing the value to rounding.
std::optional<double> parseInt(const QString& text);

} // namespace ts::js
