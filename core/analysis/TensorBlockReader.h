#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "format/Dtype.h"
#include "io/PieceBuffer.h"
#include "io/TensorLocation.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

namespace ts {

// One run of at most ValueAccumulator::kBlock elements (a whole read for blocks handed over
// undecoded), in the one form its dtype decodes to: `values` says which.
struct DecodedBlock {
    // Every dtype exactly representable in float (decode::decodesToFloat): F32 in place, the
    // others decoded.
    struct Floats {
        const float* values;
    };
    // F64, I32, U32, I64 and U64, widened to double.
    struct Doubles {
        const double* values;
    };
    // C64: both parts, and the magnitude |z| (NaN when either part is NaN).
    struct Complex {
        const float* real;
        const float* imag;
        const double* magnitude;
    };
    // Nothing decoded: the consumer reads `raw` (coded dtypes with setDecode(false), every dtype
    // with setWholePieces(true)).
    struct Undecoded {};

    std::uint64_t firstIndex = 0;
    std::size_t count = 0;
    const std::uint8_t* raw = nullptr; // the block's bytes as stored (BOOL's 0/1 check, code counts)
    std::variant<Undecoded, Floats, Doubles, Complex> values;
};

// Streams a tensor's elements from its ByteSource in bounded pieces, decoding block by block:
// in place when the source lends them (hold(): an HTTP transfer's buffer, a MemorySource; checked
// with checkView() after each piece, so a file truncated under us gives an Error, never SIGBUS or
// silent zeros, and released after it so nothing stays resident), else read() into one buffer
// (a local file: see MappedFile::hold). Memory use is one read buffer plus a few blocks, whatever
// the tensor.
class TensorBlockReader {
public:
    // The largest piece (ByteSource::pieceBytes: 1 MiB for a local file, 4 MiB over HTTP, where
    // a reader that gets ahead of the read-ahead asks for one piece per request): what callers
    // size buffers, scan chunks and diff ranges by.
    static constexpr std::uint64_t kReadBytes = ByteSource::kDefaultPieceBytes;

    TensorBlockReader(TensorLocation location, Dtype dtype, QString tensorName);

    // Coded dtypes (16 bits or fewer) can be summarised from raw codes: with decoding off, each
    // read of those dtypes is handed over as one Undecoded block.
    void setDecode(bool on) { m_decode = on; }
    // Every read handed over as one Undecoded block, whatever the dtype (NanInfCounter).
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
    // 8-byte aligned for every dtype. Not initialised: a read fills what is used, and zeroing
    // 4 MiB for a remote piece that straddles two transfers was 12% of a remote scan's page faults.
    PieceBuffer m_buffer;
    std::vector<float> m_floats;
    std::vector<float> m_imag;
    std::vector<double> m_doubles;
    bool m_decode = true;
    bool m_wholePieces = false;
};

} // namespace ts
