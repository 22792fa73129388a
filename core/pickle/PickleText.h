#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ts::pickle {

// The text arguments of protocol 0 opcodes, decoded as CPython's pickle module decodes them.

// STRING: a Python 2 repr in quotes, escapes as codecs.escape_decode reads them. Empty when the
// argument is not quoted (Python refuses it too).
std::optional<std::string> decodeQuotedString(std::string_view line);
// UNICODE: raw-unicode-escape (\uXXXX, \UXXXXXXXX; every other byte is Latin-1), as UTF-8.
std::optional<std::string> decodeRawUnicodeEscape(std::string_view line);
// Latin-1 bytes as UTF-8 (what _codecs.encode(s, "latin1") undoes).
std::string latin1ToUtf8(std::string_view bytes);
// UTF-8 text as Latin-1 bytes, when every code point is below 256.
std::optional<std::string> utf8ToLatin1(std::string_view text);

// INT and LONG: a decimal integer (sign allowed, "L" suffix for LONG).
struct DecimalInt {
    bool fits = false;        // within int64
    std::int64_t value = 0;   // when it fits
    std::string littleEndian; // two's complement bytes, when it does not
};
std::optional<DecimalInt> decodeDecimal(std::string_view text);

// FLOAT: Python's repr of a float ("1.5", "inf", "nan", "1e-05"), locale-independent.
std::optional<double> decodeFloat(std::string_view text);

// LONG1/LONG4: little-endian two's complement, as pickle.decode_long.
bool littleEndianFitsInt64(std::string_view bytes);
std::int64_t littleEndianToInt64(std::string_view bytes);

} // namespace ts::pickle
