#pragma once

#include "format/Dtype.h"

#include <cstddef>
#include <cstdint>
#include <span>

namespace ts {

// Bit-exact decoding of every safetensors dtype to float/double: the one set of decoders that
// analysis, conversion, export and the value views share (the 16-bit floats' SIMD lanes are in
// codec/HalfLanes-inl.h, used by codec/HalfWidening and the statistics kernels).
//
// Sub-byte packing (the format itself does not say; we follow PyTorch/torchao, least significant
// bits first, so element k always starts at bit 4k or 6k of a little-endian bit stream):
// - F4 (E2M1): element 2i is the LOW nibble of byte i, 2i+1 the high nibble. Source: PyTorch
//   test/test_matmul_cuda.py `_bfloat16_to_float4_e2m1fn_x2` packs `x[1::2] << 4 | x[::2]` before
//   `.view(torch.float4_e2m1fn_x2)`; torchao mx_formats `pack_uint4` does the same.
// - F6_E2M3 / F6_E3M2: four elements in three bytes read as a 24-bit little-endian word, element k
//   in bits [6k, 6k+6): byte0 = x0 | x1<<6, byte1 = x1>>2 | x2<<4, byte2 = x2>>4 | x3<<2. Source:
//   torchao mx_formats `triton_pack_uint6_kernel`. Element encodings follow the OCP Microscaling
//   Formats (MX) v1.0 specification (no Inf, no NaN for F4/F6).
// F8_E4M3 is OCP "FN" (no Inf, NaN only at S.1111.111), F8_E5M2 is IEEE-like, F8_E8M0 is 2^(e-127)
// with 0xFF NaN, the FNUZ types (bias 8 / 16) have one NaN at 0x80, no -0 and no Inf.
// A NaN decodes to the quiet NaN with the code's sign bit (the converter writes that sign into
// its output), except BF16, which is the top half of a float and decodes to that float, payload
// and all.
namespace decode {

float f16(std::uint16_t bits);
float bf16(std::uint16_t bits);
float f8(Dtype dtype, std::uint8_t code); // one of the five F8_* dtypes
float f4(std::uint8_t nibble);            // low 4 bits used
float f6(Dtype dtype, std::uint8_t code); // low 6 bits used

// Smallest positive normal number of the dtype; 0 when it has no subnormals (integers, E8M0).
double minNormal(Dtype dtype);

// Element `index` of a tensor's bytes as a double (C64: the real part). For tests and spot reads;
// bulk work goes through decodeToFloat().
double element(Dtype dtype, std::span<const std::byte> bytes, std::uint64_t index);

// True for the dtypes decodeToFloat() accepts: every dtype exactly representable in float
// (all but I32, U32, I64, U64, F64 and C64).
bool decodesToFloat(Dtype dtype);
// Decodes `count` elements starting at the first bit of `bytes` into `out`. For F4 / F6 the caller
// starts at an element index that is a multiple of 8, so the first element is byte-aligned.
// BOOL bytes decode to 0 or 1 (any non-zero byte is true, as numpy and PyTorch read them).
// F16, BF16, F8_E4M3 and F8_E5M2 go through SIMD lanes (codec/HalfWidening.h, codec/F8Widening.h).
void decodeToFloat(Dtype dtype, const std::byte* bytes, std::size_t count, float* out);

// Dtypes of at most 16 bits (every one but I32, U32, I64, U64, F32, F64 and C64): every element
// is one of codeCount() codes, so a run of elements is summarised by counting codes (about one
// cycle per element) instead of decoding each element (codec/CodeTable: each code's value).
bool isCoded(Dtype dtype);
int codeCount(Dtype dtype); // 65536 (16-bit dtypes), 256, 64 (F6) or 16 (F4)
// The value of each code of a dtype of at most 8 bits (codeCount() entries).
const float* codeValues(Dtype dtype);
// The code of element i of a coded dtype.
std::uint32_t codeAt(Dtype dtype, const std::byte* bytes, std::size_t i);
// Adds to counts[code] the codes of `count` elements starting at the first bit of `bytes`, for a
// dtype of at most 8 bits (CodeCounter counts the 16-bit ones).
void countCodes(Dtype dtype, const std::byte* bytes, std::size_t count, std::uint32_t* counts);

} // namespace decode
} // namespace ts
