#pragma once

namespace ts {

// The value of one hexadecimal digit, or -1: what a JSON \uXXXX escape (format/HeaderScanner) and a
// pickle's \x and \u escapes (pickle/PickleText) are made of. Inline: the header scanner takes it
// for every escaped character of a 100 MB header.
inline int hexDigitValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace ts
