#pragma once
// The SIMD targets a benchmark can force Highway's dispatcher to, so each kernel is measured on
// every instruction set the binary carries (not only the best this CPU has): a user's machine
// without AVX-512 runs the AVX2 or SSE4 code, and those numbers are what that user sees.

#include <hwy/targets.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace ts::bench {

// Every target compiled in and supported by this CPU, best first.
inline std::vector<std::int64_t> simdTargets()
{
    return hwy::SupportedAndGeneratedTargets();
}

// The target named `name` (hwy::TargetName spelling: AVX3, AVX2, SSE4, SSSE3, EMU128), or 0.
inline std::int64_t simdTargetNamed(const char* name)
{
    for (const std::int64_t t : simdTargets()) {
        if (std::strcmp(hwy::TargetName(t), name) == 0)
            return t;
    }
    return 0;
}

// Restricts dispatch to `target` (0: the best one again).
inline void forceSimdTarget(std::int64_t target)
{
    hwy::SetSupportedTargetsForTest(target);
}

} // namespace ts::bench
