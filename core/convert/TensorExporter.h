#pragma once

#include "base/Result.h"
#include "checkpoint/Checkpoint.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <QByteArray>
#include <QString>

namespace ts {

// Writes one tensor for other tools: NumPy .npy (format 1.0) or CSV (1-D and 2-D).
class TensorExporter {
public:
    enum class Format { Npy, Csv };

    struct Outcome {
        QString note; // e.g. "BF16 was exported as float32", for the user
    };

    // Format from the file name's suffix (.npy, .csv); nullopt for anything else.
    static std::optional<Format> formatForPath(const QString& path);

    // Writes atomically. F4/F6/F8_E8M0/FNUZ types are refused as not supported yet.
    static Result<Outcome> exportTensor(const TensorInfo& tensor, const TensorLocation& data,
                                        const QString& path, Format format);
    // Tensor `tensor` of `model`, refusing a `path` that is one of the model's files (InputFiles):
    // what the CLI and the GUI call. Replacing any other existing file is the caller's decision.
    static Result<Outcome> exportFromModel(const Checkpoint& model, int tensor, const QString& path,
                                           Format format);

    // The .npy descr for a dtype stored as is ("<f4", "|u1", "<c8"), or empty when it needs widening.
    static QByteArray npyDescr(Dtype dtype);
    // The 10-byte preamble and padded dict of a .npy v1.0 file.
    static QByteArray npyHeader(const QByteArray& descr, const Shape& shape);
};

} // namespace ts
