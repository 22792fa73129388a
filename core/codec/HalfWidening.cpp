// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks the best
// one for the running CPU, so no -march flag is needed.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "codec/HalfWidening.cpp"
#include <hwy/foreach_target.h> // IWYU pragma: keep

#include <hwy/highway.h>

#include "codec/DtypeDecoder.h"
#include "codec/HalfLanes-inl.h"
#include "codec/HalfWidening.h"

#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace ts::codec::HWY_NAMESPACE {

template <bool kBf16>
std::size_t Widen(const std::uint16_t* HWY_RESTRICT in, std::size_t n, float* HWY_RESTRICT out)
{
    const hn::ScalableTag<float> df;
    const hn::RebindToSigned<decltype(df)> di;
    const std::size_t N = hn::Lanes(df);
    // NaN lanes counted as minus their number (a true mask is -1) in int32 lanes, emptied into
    // `nans` every 2^30 elements at most, so neither a lane nor their int32 sum can wrap.
    std::size_t nans = 0;
    std::size_t i = 0;
    while (i + N <= n) {
        auto count = hn::Zero(di);
        const std::size_t end = i + std::min<std::size_t>((n - i) / N, (std::size_t{1} << 30) / N) * N;
        for (; i < end; i += N) {
            PrefetchAhead(in + i, N * 2);
            const auto v = kBf16 ? Bf16Lanes(df, in + i) : F16Lanes(df, in + i);
            hn::StoreU(v, df, out + i);
            count = hn::Add(count, hn::VecFromMask(di, hn::RebindMask(di, hn::IsNaN(v))));
        }
        nans += static_cast<std::size_t>(-static_cast<std::int64_t>(hn::GetLane(hn::SumOfLanes(di, count))));
    }
    for (; i < n; ++i) {
        // The codes and the floats may sit at any byte offset (a tensor converted in pieces, a
        // file's odd alignment): copied in and out, not dereferenced as uint16_t or float.
        std::uint16_t code;
        std::memcpy(&code, reinterpret_cast<const unsigned char*>(in) + i * sizeof(code), sizeof(code));
        const float value = kBf16 ? ts::decode::bf16(code) : ts::decode::f16(code);
        std::memcpy(reinterpret_cast<unsigned char*>(out) + i * sizeof(value), &value, sizeof(value));
        nans += value != value;
    }
    return nans;
}

std::size_t WidenHalfs(const void* HWY_RESTRICT src, std::size_t n, bool bf16, float* HWY_RESTRICT out)
{
    const auto* in = static_cast<const std::uint16_t*>(src);
    return bf16 ? Widen<true>(in, n, out) : Widen<false>(in, n, out);
}

} // namespace ts::codec::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace ts::codec {
HWY_EXPORT(WidenHalfs);
} // namespace ts::codec

namespace ts::decode {

std::size_t widenHalfs(const void* src, std::size_t n, bool bf16, float* out)
{
    return HWY_DYNAMIC_DISPATCH(ts::codec::WidenHalfs)(src, n, bf16, out);
}

} // namespace ts::decode
#endif
