#include "format/Dtype.h"

#include <string_view>

namespace ts {
namespace {

struct DtypeRow {
    std::string_view name; // a literal: null-terminated too; its length known (no strlen per lookup)
    int bits;
    DtypeKind kind;
};

constexpr std::array<DtypeRow, kDtypeCount> kRows{{
    {"BOOL", 8, DtypeKind::Bool},         {"F4", 4, DtypeKind::Float},
    {"F6_E2M3", 6, DtypeKind::Float},     {"F6_E3M2", 6, DtypeKind::Float},
    {"U8", 8, DtypeKind::UnsignedInt},    {"I8", 8, DtypeKind::SignedInt},
    {"F8_E5M2", 8, DtypeKind::Float},     {"F8_E4M3", 8, DtypeKind::Float},
    {"F8_E8M0", 8, DtypeKind::Float},     {"F8_E4M3FNUZ", 8, DtypeKind::Float},
    {"F8_E5M2FNUZ", 8, DtypeKind::Float}, {"I16", 16, DtypeKind::SignedInt},
    {"U16", 16, DtypeKind::UnsignedInt},  {"F16", 16, DtypeKind::Float},
    {"BF16", 16, DtypeKind::Float},       {"I32", 32, DtypeKind::SignedInt},
    {"U32", 32, DtypeKind::UnsignedInt},  {"F32", 32, DtypeKind::Float},
    {"C64", 64, DtypeKind::Complex},      {"F64", 64, DtypeKind::Float},
    {"I64", 64, DtypeKind::SignedInt},    {"U64", 64, DtypeKind::UnsignedInt},
}};

const DtypeRow& row(Dtype dtype)
{
    return kRows[static_cast<std::size_t>(dtype)];
}

} // namespace

int dtypeBits(Dtype dtype)
{
    return row(dtype).bits;
}

DtypeKind dtypeKind(Dtype dtype)
{
    return row(dtype).kind;
}

bool isFloating(Dtype dtype)
{
    return row(dtype).kind == DtypeKind::Float;
}

QString dtypeName(Dtype dtype)
{
    return QString::fromLatin1(row(dtype).name.data(), static_cast<qsizetype>(row(dtype).name.size()));
}

const char* dtypeNameLatin1(Dtype dtype)
{
    return row(dtype).name.data();
}

std::optional<Dtype> dtypeFromName(std::string_view name)
{
    for (int i = 0; i < kDtypeCount; ++i) {
        if (name == kRows[i].name)
            return static_cast<Dtype>(i);
    }
    return std::nullopt;
}

std::optional<Dtype> dtypeFromName(const QString& name)
{
    const QByteArray utf8 = name.toUtf8();
    return dtypeFromName(std::string_view(utf8.constData(), static_cast<std::size_t>(utf8.size())));
}

} // namespace ts
