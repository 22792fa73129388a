#pragma once

#include "io/ByteSource.h"
#include "pickle/TorchContents.h"

#include <memory>

namespace ts::pickle {

// The bytes of a tensor that is not one little-endian range of its file, as safetensors would
// store them: a view with gaps or a stride of 0 (a slice, a transpose, an expanded tensor)
// gathered into row-major order, a big-endian storage swapped to little-endian. Reads go to the
// file's own source; nothing is copied until asked for. What Converter, the statistics and the
// heatmaps read through for such tensors.
class TensorViewSource final : public ByteSource {
public:
    TensorViewSource(std::shared_ptr<const ByteSource> file, const TorchTensor& tensor);

    QString displayName() const override { return m_name; }
    std::uint64_t size() const override { return m_size; }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override;
    bool changedOnDisk() const override { return m_file->changedOnDisk(); }
    std::uint64_t pieceBytes() const override { return m_file->pieceBytes(); }

private:
    Result<void> readElements(std::uint64_t first, std::uint64_t count, std::byte* out) const;
    void swap(std::byte* data, std::uint64_t count) const;

    std::shared_ptr<const ByteSource> m_file;
    QString m_name;
    std::uint64_t m_size = 0;
    std::uint64_t m_elementSize = 1;
    std::vector<std::uint64_t> m_shape;
    std::vector<std::uint64_t> m_stride;
    std::uint64_t m_first = 0; // absolute offset of element 0 of the view's storage offset
    bool m_swap = false;
    bool m_complexHalves = false;
};

} // namespace ts::pickle
