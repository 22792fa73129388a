#pragma once

#include <QByteArray>

#include <optional>

namespace ts {

// serde_json (the reference's JSON reader) reads the integer `-0` and integers outside the 64-bit
// range as floats, while simdjson reads `-0` as the integer 0 and rejects the big ones outright.
// The difference decides verdicts: a shape of [-0] must be rejected (floats are not sizes) and a
// big integer in an ignored extra field must be accepted. Rewriting those tokens as floats
// ("-0" -> "-0.0") before simdjson sees them reproduces serde's reading exactly.
//
// Returns the rewritten text, or nullopt when nothing needed rewriting.
std::optional<QByteArray> normalizeJsonNumbers(const char* json, std::size_t size);

// Cheap test for whether normalizeJsonNumbers could change anything: a header without "-0" needs
// the full token scan only after simdjson has rejected a number.
bool mayContainNegativeZero(const char* json, std::size_t size);

} // namespace ts
