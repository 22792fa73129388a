#include "pickle/TorchDtype.h"

#include <array>

namespace ts::pickle {
namespace {

struct Row {
    TorchDtype dtype;
    const char* name;
    const char* storageClass; // legacy typed storage, or nullptr
    int size;
    std::optional<Dtype> safetensors;
};

// torch/storage.py (_dtype_to_storage_type_map) and torch/_utils.py (_element_size).
const std::array<Row, 26> kRows{{
    {TorchDtype::Float32, "float32", "FloatStorage", 4, Dtype::F32},
    {TorchDtype::Float64, "float64", "DoubleStorage", 8, Dtype::F64},
    {TorchDtype::Float16, "float16", "HalfStorage", 2, Dtype::F16},
    {TorchDtype::BFloat16, "bfloat16", "BFloat16Storage", 2, Dtype::BF16},
    {TorchDtype::Int64, "int64", "LongStorage", 8, Dtype::I64},
    {TorchDtype::Int32, "int32", "IntStorage", 4, Dtype::I32},
    {TorchDtype::Int16, "int16", "ShortStorage", 2, Dtype::I16},
    {TorchDtype::Int8, "int8", "CharStorage", 1, Dtype::I8},
    {TorchDtype::UInt8, "uint8", "ByteStorage", 1, Dtype::U8},
    {TorchDtype::Bool, "bool", "BoolStorage", 1, Dtype::BOOL},
    {TorchDtype::Complex64, "complex64", "ComplexFloatStorage", 8, Dtype::C64},
    {TorchDtype::Complex128, "complex128", "ComplexDoubleStorage", 16, std::nullopt},
    {TorchDtype::Complex32, "complex32", nullptr, 4, std::nullopt},
    {TorchDtype::UInt16, "uint16", nullptr, 2, Dtype::U16},
    {TorchDtype::UInt32, "uint32", nullptr, 4, Dtype::U32},
    {TorchDtype::UInt64, "uint64", nullptr, 8, Dtype::U64},
    {TorchDtype::Float8E4M3, "float8_e4m3fn", nullptr, 1, Dtype::F8_E4M3},
    {TorchDtype::Float8E5M2, "float8_e5m2", nullptr, 1, Dtype::F8_E5M2},
    {TorchDtype::Float8E4M3Fnuz, "float8_e4m3fnuz", nullptr, 1, Dtype::F8_E4M3FNUZ},
    {TorchDtype::Float8E5M2Fnuz, "float8_e5m2fnuz", nullptr, 1, Dtype::F8_E5M2FNUZ},
    {TorchDtype::Float8E8M0, "float8_e8m0fnu", nullptr, 1, Dtype::F8_E8M0},
    {TorchDtype::QInt8, "qint8", "QInt8Storage", 1, std::nullopt},
    {TorchDtype::QUInt8, "quint8", "QUInt8Storage", 1, std::nullopt},
    {TorchDtype::QInt32, "qint32", "QInt32Storage", 4, std::nullopt},
    {TorchDtype::QUInt4x2, "quint4x2", "QUInt4x2Storage", 1, std::nullopt},
    {TorchDtype::QUInt2x4, "quint2x4", "QUInt2x4Storage", 1, std::nullopt},
}};

const Row& row(TorchDtype dtype)
{
    return kRows[static_cast<std::size_t>(dtype)];
}

} // namespace

int torchElementSize(TorchDtype dtype)
{
    return row(dtype).size;
}

QString torchDtypeName(TorchDtype dtype)
{
    return QString::fromLatin1(row(dtype).name);
}

std::optional<Dtype> safetensorsDtype(TorchDtype dtype)
{
    return row(dtype).safetensors;
}

std::optional<TorchDtype> dtypeOfStorageClass(std::string_view name)
{
    for (const Row& r : kRows) {
        if (r.storageClass && name == r.storageClass)
            return r.dtype;
    }
    return std::nullopt;
}

std::optional<TorchDtype> dtypeOfName(std::string_view name)
{
    for (const Row& r : kRows) {
        if (name == r.name)
            return r.dtype;
    }
    // The aliases torch also exports (torch.float is torch.float32, and so on); pickle writes the
    // canonical name, a hand-written file may use these.
    static const std::array<std::pair<const char*, TorchDtype>, 9> aliases{{
        {"float", TorchDtype::Float32},
        {"double", TorchDtype::Float64},
        {"half", TorchDtype::Float16},
        {"long", TorchDtype::Int64},
        {"int", TorchDtype::Int32},
        {"short", TorchDtype::Int16},
        {"cfloat", TorchDtype::Complex64},
        {"cdouble", TorchDtype::Complex128},
        {"chalf", TorchDtype::Complex32},
    }};
    for (const auto& [alias, dtype] : aliases) {
        if (name == alias)
            return dtype;
    }
    return std::nullopt;
}

} // namespace ts::pickle
