#pragma once

#include <QStringView>

namespace ts {

// The one order for names in every view: runs of digits compare as numbers, so "lora.2" comes
// before "lora.10", "Conv2d_2" before "Conv2d_10" and "layers.9.mlp" before "layers.10.mlp".
// Digit runs of any length compare without parsing (no overflow), leading zeros are ignored and
// then break ties ("7" before "007"); a digit run sorts before text at the same place ("0" before
// "bias"); text compares case-insensitively first and by case last, so the order is total.
int naturalCompare(QStringView a, QStringView b);

inline bool naturalLess(QStringView a, QStringView b)
{
    return naturalCompare(a, b) < 0;
}

} // namespace ts
