#pragma once

#include <QString>

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ts {

// The 22 dtypes of the reference implementation, in its declaration order. The order matters:
// the reference writer lays tensors out by dtype *descending* in this order.
enum class Dtype : std::uint8_t {
    BOOL,
    F4,
    F6_E2M3,
    F6_E3M2,
    U8,
    I8,
    F8_E5M2,
    F8_E4M3,
    F8_E8M0,
    F8_E4M3FNUZ,
    F8_E5M2FNUZ,
    I16,
    U16,
    F16,
    BF16,
    I32,
    U32,
    F32,
    C64,
    F64,
    I64,
    U64,
};

inline constexpr int kDtypeCount = 22;

enum class DtypeKind { Bool, Float, SignedInt, UnsignedInt, Complex };

constexpr std::array<Dtype, kDtypeCount> allDtypes()
{
    std::array<Dtype, kDtypeCount> all{};
    for (int i = 0; i < kDtypeCount; ++i)
        all[i] = static_cast<Dtype>(i);
    return all;
}

// Size of one element in bits (4 for F4, 6 for F6_*).
int dtypeBits(Dtype dtype);
DtypeKind dtypeKind(Dtype dtype);
bool isFloating(Dtype dtype); // real floating point, sub-byte and F8 included
// Exact spelling used in headers ("F8_E4M3").
QString dtypeName(Dtype dtype);
const char* dtypeNameLatin1(Dtype dtype);
// Case-sensitive, exact match as the reference requires.
std::optional<Dtype> dtypeFromName(std::string_view name);
std::optional<Dtype> dtypeFromName(const QString& name);

} // namespace ts
