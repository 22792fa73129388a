#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "format/Dtype.h"
#include "io/TensorLocation.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ts {

// One decoded run of at most ValueAccumulator::kBlock elements (a whole read for undecoded coded
// blocks, which carry only `raw`). Exactly one of `floats` / `doubles`
// is set for real dtypes; C64 sets `real`, `imag` (floats) and `doubles` (the magnitude).
struct DecodedBlock {
    std::uint64_t firstIndex = 0;
    std::size_t count = 0;
    const float* floats = nullptr;
    const double* doubles = nullptr;
    const float* real = nullptr;
    const float* imag = nullptr;
    const std::uint8_t* raw = nullptr; // the undecoded bytes, for BOOL's 0/1 check
    // With setUndecodedHalfs(true), F16/BF16 blocks set these instead of `floats`: the codes, and
    // room for `count` floats should the consumer need them decoded.
    const std::uint16_t* halfs = nullptr;
    float* scratch = nullptr;
};

// Streams a tensor's elements from its ByteSource in bounded pieces, decoding block by block:
// straight from the mapping when the source offers a view (checked with checkView() after each
// piece, so a file truncated under us gives an Error, never SIGBUS or silent zeros, and released
// after it so nothing stays resident), else through pread into one buffer. Memory use is one
// read buffer plus a few blocks, whatever the tensor.
class TensorBlockReader {
public:
    static constexpr std::uint64_t kReadBytes =
        4 << 20; // a piece: cancel checks and page release between pieces

    TensorBlockReader(TensorLocation location, Dtype dtype, QString tensorName);

    // Coded dtypes (8 bits or fewer) can be summarised from raw codes: with decoding off, each
    // read of those dtypes is handed over as one block carrying only `raw`.
    void setDecode(bool on) { m_decode = on; }
    // F16 and BF16 blocks handed over as codes (DecodedBlock::halfs), for consumers that widen
    // them in registers (ValueAccumulator::addHalfs) rather than through a float copy.
    void setUndecodedHalfs(bool on) { m_undecodedHalfs = on; }
    // Every read handed over as one block carrying only `raw`, whatever the dtype (NanInfCounter).
    void setWholePieces(bool on) { m_wholePieces = on; }

    // Bytes holding elements [0, n): ceil(n * bits / 8).
    static std::uint64_t bytesFor(Dtype dtype, std::uint64_t elements);

    // Calls `fn` for each block of elements [first, first + count). `first` must be a multiple of
    // 8 so sub-byte dtypes start on a byte boundary. The control's token is polled before each
    // piece and each piece's bytes are added to its sink.
    Result<void> forEach(std::uint64_t first, std::uint64_t count, const JobControl& control,
                         const std::function<void(const DecodedBlock&)>& fn);
    // For elements [first, first + count) whose bytes the caller need not read (a dtype with no
    // NaN/Inf encoding, for the NaN/Inf check): a cancel point, and the error a read would have
    // given if the file no longer holds them.
    Result<void> checkUnread(std::uint64_t first, std::uint64_t count, const JobControl& control) const;

private:
    // Names the tensor; keeps the cause's code (FileChanged tells the window to offer a reload).
    Error readError(const QString& why, std::uint64_t offset, ErrorCode code = ErrorCode::IoError) const;
    // The Cancelled error when the control's token is cancelled.
    std::optional<Error> cancelled(const JobControl& control) const;

    TensorLocation m_location;
    Dtype m_dtype;
    QString m_name;
    std::vector<std::uint64_t> m_buffer; // uint64 storage: 8-byte aligned for every dtype
    std::vector<float> m_floats;
    std::vector<float> m_imag;
    std::vector<double> m_doubles;
    bool m_decode = true;
    bool m_undecodedHalfs = false;
    bool m_wholePieces = false;
};

} // namespace ts
