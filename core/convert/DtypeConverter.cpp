#include "convert/DtypeConverter.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#if defined(__GNUC__) && defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#define TS_HAVE_F16C_KERNEL 1
#endif

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; so is every host we build for");

namespace ts {
namespace {

struct Format {
    int expBits;
    int mantBits;
    bool hasInf; // false: F8_E4M3 ("FN"): no Inf, NaN only as S.1111.111, max 448
};

Format formatOf(Dtype d)
{
    switch (d) {
    case Dtype::F64:
        return {11, 52, true};
    case Dtype::F32:
        return {8, 23, true};
    case Dtype::F16:
        return {5, 10, true};
    case Dtype::BF16:
        return {8, 7, true};
    case Dtype::F8_E5M2:
        return {5, 2, true};
    case Dtype::F8_E4M3:
        return {4, 3, false};
    default:
        return {0, 0, true};
    }
}

double decodeBits(std::uint64_t bits, Format f)
{
    const int bias = (1 << (f.expBits - 1)) - 1;
    const std::uint64_t mantMask = (std::uint64_t{1} << f.mantBits) - 1;
    const std::uint64_t expMask = (std::uint64_t{1} << f.expBits) - 1;
    const bool negative = (bits >> (f.expBits + f.mantBits)) & 1;
    const std::uint64_t exp = (bits >> f.mantBits) & expMask;
    const std::uint64_t mant = bits & mantMask;
    double v = 0;
    if (f.hasInf && exp == expMask)
        v = mant == 0 ? HUGE_VAL : std::nan("");
    else if (!f.hasInf && exp == expMask && mant == mantMask)
        v = std::nan("");
    else if (exp == 0)
        v = std::ldexp(static_cast<double>(mant), 1 - bias - f.mantBits);
    else
        v = std::ldexp(static_cast<double>(mant | (mantMask + 1)), static_cast<int>(exp) - bias - f.mantBits);
    return negative ? -v : v;
}

// Rounds a double to the format, ties to even, by scaling to an integer count of the target's
// quantum at that magnitude: exact in double arithmetic for every target narrower than F64.
std::uint64_t encodeBits(double x, Format f, ConversionCounts& counts)
{
    const int bias = (1 << (f.expBits - 1)) - 1;
    const std::uint64_t mantMask = (std::uint64_t{1} << f.mantBits) - 1;
    const std::uint64_t expMask = (std::uint64_t{1} << f.expBits) - 1;
    const std::uint64_t sign = std::signbit(x) ? std::uint64_t{1} << (f.expBits + f.mantBits) : 0;
    const std::uint64_t infBits = expMask << f.mantBits;
    const std::uint64_t maxBits = f.hasInf ? infBits - 1 : (expMask << f.mantBits) | (mantMask - 1);
    if (std::isnan(x)) {
        ++counts.nan;
        return sign | (f.hasInf ? infBits | (std::uint64_t{1} << (f.mantBits - 1))
                                : (expMask << f.mantBits) | mantMask);
    }
    const double a = std::fabs(x);
    if (std::isinf(a)) {
        if (f.hasInf)
            return sign | infBits;
        ++counts.overflowed;
        return sign | maxBits;
    }
    if (a == 0)
        return sign;
    const int emin = 1 - bias;
    const double maxFinite = decodeBits(maxBits, f);
    int e = std::ilogb(a);
    if (e < emin)
        e = emin;
    const double n = std::nearbyint(std::ldexp(a, f.mantBits - e));
    const double v = std::ldexp(n, e - f.mantBits);
    if (v > maxFinite) {
        ++counts.overflowed;
        return sign | (f.hasInf ? infBits : maxBits);
    }
    if (v == 0) {
        ++counts.underflowed;
        return sign;
    }
    if (v < std::ldexp(1.0, emin))
        return sign | static_cast<std::uint64_t>(n);
    const int ev = std::ilogb(v);
    const auto mant = static_cast<std::uint64_t>(std::ldexp(v, f.mantBits - ev)) & mantMask;
    return sign | (static_cast<std::uint64_t>(ev + bias) << f.mantBits) | mant;
}

template <typename T> T load(const std::byte* p)
{
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

template <typename T> void store(std::byte* p, T v)
{
    std::memcpy(p, &v, sizeof v);
}

const std::vector<float>& f16Table()
{
    static const std::vector<float> table = [] {
        std::vector<float> t(65536);
        for (std::uint32_t i = 0; i < 65536; ++i)
            t[i] = static_cast<float>(decodeBits(i, formatOf(Dtype::F16)));
        return t;
    }();
    return table;
}

const std::array<double, 256>& f8Table(Dtype d)
{
    static const auto build = [](Dtype dtype) {
        std::array<double, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i)
            t[i] = decodeBits(i, formatOf(dtype));
        return t;
    };
    static const std::array<double, 256> e4m3 = build(Dtype::F8_E4M3);
    static const std::array<double, 256> e5m2 = build(Dtype::F8_E5M2);
    return d == Dtype::F8_E4M3 ? e4m3 : e5m2;
}

// The hot paths are branch-free integer code the compiler vectorises: counts are summed per
// block in 32-bit lanes (no 64-bit widening inside the loop), and each kernel is compiled twice,
// for AVX2 and for baseline x86-64, with the choice made at run time (never -march=native).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TS_KERNEL __attribute__((target_clones("avx2", "default")))
#else
#define TS_KERNEL
#endif

constexpr std::size_t kBlock = 1u << 16;

TS_KERNEL void f32ToBf16Block(const std::byte* __restrict in, std::byte* __restrict out, std::size_t n,
                              std::uint32_t* __restrict tally)
{
    std::uint32_t over = 0, under = 0, nans = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t x = load<std::uint32_t>(in + 4 * i);
        const std::uint32_t ax = x & 0x7fffffffu;
        const std::uint32_t isNan = ax > 0x7f800000u;
        const std::uint32_t rounded = (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
        const std::uint32_t o = isNan ? ((x >> 16) | 0x40u) : rounded;
        store<std::uint16_t>(out + 2 * i, static_cast<std::uint16_t>(o));
        nans += isNan;
        over += (ax < 0x7f800000u) & ((o & 0x7fffu) == 0x7f80u);
        under += (ax != 0) & ((o & 0x7fffu) == 0);
    }
    tally[0] += over;
    tally[1] += under;
    tally[2] += nans;
}

// After Fabian Giesen's float_to_half_fast3_rtne, all in integers so it vectorises: normal
// results round by adding just under half an ulp plus the lowest kept bit; subnormal results
// shift the full mantissa right by a per-element amount with the same rounding.
TS_KERNEL void f32ToF16Block(const std::byte* __restrict in, std::byte* __restrict out, std::size_t n,
                             std::uint32_t* __restrict tally)
{
    constexpr std::uint32_t kInf32 = 255u << 23;
    constexpr std::uint32_t kF16Max = (127u + 16u) << 23; // 65536: from here on, Inf
    constexpr std::uint32_t kMinNormal = 113u << 23;      // 2^-14
    std::uint32_t over = 0, under = 0, nans = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t x = load<std::uint32_t>(in + 4 * i);
        const std::uint32_t sign = x & 0x80000000u;
        const std::uint32_t ax = x ^ sign;
        // A NaN keeps the top of its payload, quiet bit set, as F16C's vcvtps2ph does: the same
        // input gives the same file whether the CPU has F16C or not (found by fuzz_convert).
        const std::uint32_t big = ax > kInf32 ? 0x7e00u | ((ax >> 13) & 0x3ffu) : 0x7c00u;
        const std::uint32_t mant = (ax & 0x7fffffu) | 0x800000u;
        // Every element computes `sub`, also those that take another result: the shift is kept in
        // [1, 31] so none shifts by 32 or more, which is undefined (found by fuzz_convert; for
        // inputs of 0.5 and above, 1u << (shift - 1) shifted by 2^32 - 1). The elements that use
        // `sub` (exponent below 113) have a shift of 14 or more anyway.
        const std::uint32_t shift = std::clamp(126u - std::min(ax >> 23, 126u), 1u, 31u);
        const std::uint32_t sub = (mant + (1u << (shift - 1)) - 1u + ((mant >> shift) & 1u)) >> shift;
        const std::uint32_t normal = (ax + ((15u - 127u) << 23) + 0xfffu + ((ax >> 13) & 1u)) >> 13;
        const std::uint32_t o = ax >= kF16Max ? big : (ax < kMinNormal ? sub : normal);
        store<std::uint16_t>(out + 2 * i, static_cast<std::uint16_t>(o | (sign >> 16)));
        nans += ax > kInf32;
        over += (ax < kInf32) & (o == 0x7c00u);
        under += (ax != 0) & (o == 0);
    }
    tally[0] += over;
    tally[1] += under;
    tally[2] += nans;
}

#ifdef TS_HAVE_F16C_KERNEL

std::atomic<bool> g_allowHardware{true};

// AVX2 and F16C, usable by this process. Asked of CPUID directly rather than with
// __builtin_cpu_supports, because clang 14 rejects "f16c" there ("invalid cpu feature string")
// and the fuzz build compiles this file with clang. The checks are the ones GCC's libgcc makes
// for __builtin_cpu_supports("avx2"): the CPU has the feature bits, and the OS saves the YMM
// registers on a context switch (OSXSAVE set and XCR0 enabling SSE and AVX state); without the
// latter AVX instructions fault even on a CPU that has them.
// `cpuid1Ecx` has OSXSAVE and XCR0 enables every state component in `mask`.
bool osSavesState(unsigned cpuid1Ecx, unsigned mask)
{
    constexpr unsigned kOsxsave = 1u << 27;
    if ((cpuid1Ecx & kOsxsave) == 0)
        return false;
    unsigned xcr0 = 0, xcr0High = 0;
    // xgetbv by its opcode: _xgetbv() would need the xsave target attribute on this function.
    __asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(xcr0High) : "c"(0));
    (void)xcr0High;
    return (xcr0 & mask) == mask;
}

bool cpuHasAvx2F16c()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    constexpr unsigned kAvx = 1u << 28, kF16c = 1u << 29;
    if ((ecx & (kAvx | kF16c)) != (kAvx | kF16c) || !osSavesState(ecx, 0x6u)) // XMM and YMM state
        return false;
    if (__get_cpuid_max(0, nullptr) < 7)
        return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    constexpr unsigned kAvx2 = 1u << 5;
    return (ebx & kAvx2) != 0;
}

bool hardwareF16()
{
    static const bool supported = cpuHasAvx2F16c();
    return supported && g_allowHardware.load(std::memory_order_relaxed);
}

// The F16C instruction rounds to nearest even with subnormals and NaNs as IEEE says; the counts
// come from the input alone: |x| >= 65520 overflows, 0 < |x| <= 2^-25 underflows.
__attribute__((target("avx2,f16c"))) void f32ToF16Hardware(const std::byte* __restrict in,
                                                           std::byte* __restrict out, std::size_t n,
                                                           std::uint32_t* __restrict tally)
{
    const __m256i absMask = _mm256_set1_epi32(0x7fffffff);
    const __m256i inf = _mm256_set1_epi32(0x7f800000);
    const __m256i overFrom = _mm256_set1_epi32(0x477ff000 - 1); // bits of 65520.0f, less one
    const __m256i underTo = _mm256_set1_epi32(0x33000000 + 1);  // bits of 2^-25, plus one
    const __m256i zero = _mm256_setzero_si256();
    __m256i over = zero, under = zero, nans = zero;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 4 * i));
        _mm_storeu_si128(
            reinterpret_cast<__m128i*>(out + 2 * i),
            _mm256_cvtps_ph(_mm256_castsi256_ps(x), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
        const __m256i ax = _mm256_and_si256(x, absMask);
        const __m256i finite = _mm256_cmpgt_epi32(inf, ax);
        nans = _mm256_sub_epi32(nans, _mm256_cmpgt_epi32(ax, inf));
        over = _mm256_sub_epi32(over, _mm256_and_si256(finite, _mm256_cmpgt_epi32(ax, overFrom)));
        under = _mm256_sub_epi32(
            under, _mm256_andnot_si256(_mm256_cmpeq_epi32(ax, zero), _mm256_cmpgt_epi32(underTo, ax)));
    }
    alignas(32) std::uint32_t lanes[3][8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[0]), over);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[1]), under);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[2]), nans);
    for (int k = 0; k < 3; ++k) {
        for (int l = 0; l < 8; ++l)
            tally[k] += lanes[k][l];
    }
    if (i < n)
        f32ToF16Block(in + 4 * i, out + 2 * i, n - i, tally);
}

// AVX-512 with the BF16 extension (Intel since Cooper Lake, AMD since Zen 4), usable by this
// process: the CPUID bits for AVX512F, AVX512VL, AVX512BW and AVX512_BF16, and the OS saving the
// opmask and ZMM state (XCR0 bits 5-7) besides XMM and YMM.
bool cpuHasAvx512Bf16()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !osSavesState(ecx, 0xe6u)) // XMM, YMM, opmask, ZMM
        return false;
    if (__get_cpuid_max(0, nullptr) < 7)
        return false;
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    constexpr unsigned kF = 1u << 16, kBw = 1u << 30, kVl = 1u << 31;
    if ((ebx & (kF | kBw | kVl)) != (kF | kBw | kVl) || eax < 1)
        return false;
    __cpuid_count(7, 1, eax, ebx, ecx, edx);
    constexpr unsigned kBf16 = 1u << 5;
    return (eax & kBf16) != 0;
}

bool hardwareBf16()
{
    static const bool supported = cpuHasAvx512Bf16();
    return supported && g_allowHardware.load(std::memory_order_relaxed);
}

// VCVTNEPS2BF16 rounds to nearest even and turns a NaN into its top half with the quiet bit set,
// as f32ToBf16Block does; but it reads a subnormal input as zero, so a group of 16 holding one
// goes to the portable kernel. Then no result is subnormal or zero from a non-zero input (BF16
// has F32's exponent range: nothing underflows), and a finite input overflows to Inf exactly
// from |x| >= 0x7f7f8000 (halfway past the largest BF16, 0x7f7f, an odd code: the tie goes up).
__attribute__((target("avx512f,avx512vl,avx512bw,avx512bf16"))) void
f32ToBf16Hardware(const std::byte* __restrict in, std::byte* __restrict out, std::size_t n,
                  std::uint32_t* __restrict tally)
{
    const __m512i absMask = _mm512_set1_epi32(0x7fffffff);
    const __m512i inf = _mm512_set1_epi32(0x7f800000);
    const __m512i overFrom = _mm512_set1_epi32(0x7f7f8000);
    const __m512i one = _mm512_set1_epi32(1);
    const __m512i subnormalTop = _mm512_set1_epi32(0x007ffffe); // |x| - 1 at or below: subnormal
    __m512i over = _mm512_setzero_si512(), nans = _mm512_setzero_si512();
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512i x = _mm512_loadu_si512(in + 4 * i);
        const __m512i ax = _mm512_and_si512(x, absMask);
        if (_mm512_cmple_epu32_mask(_mm512_sub_epi32(ax, one), subnormalTop) != 0) {
            f32ToBf16Block(in + 4 * i, out + 2 * i, 16, tally);
            continue;
        }
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 2 * i),
                            reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_castsi512_ps(x))));
        nans = _mm512_mask_add_epi32(nans, _mm512_cmpgt_epu32_mask(ax, inf), nans, one);
        over = _mm512_mask_add_epi32(
            over, _mm512_cmpge_epu32_mask(ax, overFrom) & _mm512_cmplt_epu32_mask(ax, inf), over, one);
    }
    // Lane by lane: GCC 12's _mm512_reduce_add_epi32 trips -Wuninitialized in its own header.
    alignas(64) std::uint32_t lanes[2][16];
    _mm512_store_si512(lanes[0], over);
    _mm512_store_si512(lanes[1], nans);
    for (int l = 0; l < 16; ++l) {
        tally[0] += lanes[0][l];
        tally[2] += lanes[1][l];
    }
    if (i < n)
        f32ToBf16Block(in + 4 * i, out + 2 * i, n - i, tally);
}
#endif

// Runs `kernel` in steps of kStepBytes of input, prefetching the next step's lines before each:
// on the machine we measure on (a KVM guest) the hardware prefetcher alone left these loops
// waiting on memory at under half the read bandwidth (see the analysis kernels' PrefetchAhead).
// The kernels stay plain loops the compiler vectorises.
constexpr std::size_t kStepBytes = 2048;

template <typename Kernel>
void blocked(Kernel kernel, const std::byte* in, std::byte* out, std::size_t n, std::size_t inSize,
             std::size_t outSize, ConversionCounts& counts)
{
    const std::size_t step = kStepBytes / inSize;
    for (std::size_t base = 0; base < n; base += kBlock) {
        std::uint32_t tally[3] = {0, 0, 0};
        const std::size_t end = std::min(n, base + kBlock);
        for (std::size_t at = base; at < end; at += step) {
            const std::byte* next = in + (at + step) * inSize;
            for (std::size_t line = 0; line < kStepBytes; line += 64)
                __builtin_prefetch(next + line);
            kernel(in + at * inSize, out + at * outSize, std::min(step, end - at), tally);
        }
        counts.overflowed += tally[0];
        counts.underflowed += tally[1];
        counts.nan += tally[2];
    }
}

void widenToF32(Dtype from, const std::byte* in, std::byte* out, std::size_t n, ConversionCounts& counts)
{
    std::uint64_t nans = 0;
    if (from == Dtype::BF16) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t v = std::uint32_t{load<std::uint16_t>(in + 2 * i)} << 16;
            store<std::uint32_t>(out + 4 * i, v);
            nans += (v & 0x7fffffffu) > 0x7f800000u;
        }
    } else {
        const float* table = f16Table().data();
        for (std::size_t i = 0; i < n; ++i) {
            const float v = table[load<std::uint16_t>(in + 2 * i)];
            store<float>(out + 4 * i, v);
            nans += std::isnan(v);
        }
    }
    counts.nan += nans;
}

} // namespace

void DtypeConverter::setHardwareKernelsAllowed(bool allowed)
{
#ifdef TS_HAVE_F16C_KERNEL
    g_allowHardware = allowed;
#else
    (void)allowed;
#endif
}

std::span<const Dtype> DtypeConverter::targets()
{
    static constexpr std::array<Dtype, 6> kTargets = {Dtype::F32, Dtype::F16,     Dtype::BF16,
                                                      Dtype::F64, Dtype::F8_E4M3, Dtype::F8_E5M2};
    return kTargets;
}

bool DtypeConverter::supports(Dtype d)
{
    return std::ranges::find(targets(), d) != targets().end();
}

double DtypeConverter::decode(Dtype from, const std::byte* p)
{
    switch (from) {
    case Dtype::F64:
        return load<double>(p);
    case Dtype::F32:
        return load<float>(p);
    case Dtype::F16:
        return f16Table()[load<std::uint16_t>(p)];
    case Dtype::BF16:
        return std::bit_cast<float>(std::uint32_t{load<std::uint16_t>(p)} << 16);
    case Dtype::F8_E4M3:
    case Dtype::F8_E5M2:
        return f8Table(from)[static_cast<std::uint8_t>(*p)];
    default:
        return std::nan("");
    }
}

void DtypeConverter::convert(Dtype from, Dtype to, const std::byte* in, std::byte* out, std::size_t n,
                             ConversionCounts& counts)
{
    const std::size_t inSize = static_cast<std::size_t>(dtypeBits(from) / 8);
    const std::size_t outSize = static_cast<std::size_t>(dtypeBits(to) / 8);
    if (from == to) {
        std::memcpy(out, in, n * inSize);
        return;
    }
    if (from == Dtype::F32 && to == Dtype::BF16) {
#ifdef TS_HAVE_F16C_KERNEL
        if (hardwareBf16())
            return blocked(f32ToBf16Hardware, in, out, n, 4, 2, counts);
#endif
        return blocked(f32ToBf16Block, in, out, n, 4, 2, counts);
    }
    if (from == Dtype::F32 && to == Dtype::F16) {
#ifdef TS_HAVE_F16C_KERNEL
        if (hardwareF16())
            return blocked(f32ToF16Hardware, in, out, n, 4, 2, counts);
#endif
        return blocked(f32ToF16Block, in, out, n, 4, 2, counts);
    }
    if ((from == Dtype::BF16 || from == Dtype::F16) && to == Dtype::F32)
        return widenToF32(from, in, out, n, counts);

    const Format target = formatOf(to);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = decode(from, in + i * inSize);
        std::byte* dst = out + i * outSize;
        if (to == Dtype::F64) {
            counts.nan += std::isnan(v);
            store<double>(dst, v);
            continue;
        }
        const std::uint64_t bits = encodeBits(v, target, counts);
        switch (outSize) {
        case 1:
            store<std::uint8_t>(dst, static_cast<std::uint8_t>(bits));
            break;
        case 2:
            store<std::uint16_t>(dst, static_cast<std::uint16_t>(bits));
            break;
        default:
            store<std::uint32_t>(dst, static_cast<std::uint32_t>(bits));
            break;
        }
    }
}

} // namespace ts
