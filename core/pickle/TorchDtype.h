#pragma once

#include "format/Dtype.h"

#include <QString>

#include <optional>
#include <string_view>

namespace ts::pickle {

// The element types a PyTorch checkpoint can declare, through a legacy storage class
// (torch.FloatStorage) or a dtype global (torch.float8_e4m3fn, for _rebuild_tensor_v3).
enum class TorchDtype : std::uint8_t {
    Float32,
    Float64,
    Float16,
    BFloat16,
    Int64,
    Int32,
    Int16,
    Int8,
    UInt8,
    Bool,
    Complex64,
    Complex128,
    Complex32,
    UInt16,
    UInt32,
    UInt64,
    Float8E4M3,
    Float8E5M2,
    Float8E4M3Fnuz,
    Float8E5M2Fnuz,
    Float8E8M0,
    QInt8,
    QUInt8,
    QInt32,
    QUInt4x2,
    QUInt2x4,
};

int torchElementSize(TorchDtype dtype);
QString torchDtypeName(TorchDtype dtype); // "float32", as torch spells it
// The safetensors dtype with the same bytes, or none (complex128, complex32, quantized types).
std::optional<Dtype> safetensorsDtype(TorchDtype dtype);
// "FloatStorage" -> Float32; the storage class names torch/storage.py defines.
std::optional<TorchDtype> dtypeOfStorageClass(std::string_view name);
// "float32" (and its aliases "float", "half", ...) -> Float32: the names of torch's dtype globals.
std::optional<TorchDtype> dtypeOfName(std::string_view name);

} // namespace ts::pickle
