#pragma once

#include "base/JobControl.h"
#include "base/Result.h"
#include "format/Metadata.h"
#include "format/SafetensorsFile.h"
#include "format/Shape.h"
#include "io/TensorLocation.h"

#include <optional>
#include <vector>

namespace ts {

// A tensor to write: its description and where its bytes come from (a mapped file, memory, or a
// source that converts on the fly).
struct WriterTensor {
    QString name;
    Dtype dtype = Dtype::F32;
    Shape shape;
    TensorLocation data;
};

struct WriteOptions {
    std::uint64_t headerSlack = 0; // extra header spaces for later in-place metadata saves
    // The data bytes copied are added to control.progress (the caller sets its total: the sum of
    // the tensors' lengths); a cancel stops the write between chunks, the target left untouched.
    JobControl control;
};

// Writes files in the reference writer's layout, atomically.
class SafetensorsWriter {
public:
    // Orders tensors as the reference writer does (dtype descending, then name) and writes them.
    static Result<void> write(const QString& path, std::vector<WriterTensor> tensors,
                              const std::optional<Metadata>& metadata, const WriteOptions& options = {});

    // Re-saves `file` with new metadata: only the header changes, the data buffer is carried
    // over byte-identical with the same offsets in one bulk copy. `path` may be the file itself.
    static Result<void> rewriteMetadata(const SafetensorsFile& file, const std::optional<Metadata>& metadata,
                                        const QString& path, const WriteOptions& options = {});

    // The tensors in writer order with their offsets assigned: the header a write would produce.
    static std::vector<TensorInfo> planLayout(std::vector<WriterTensor>& tensors);
};

} // namespace ts
