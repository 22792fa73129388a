#pragma once

#include "convert/DtypeConverter.h"
#include "format/Metadata.h"
#include "format/Shape.h"
#include "io/TensorLocation.h"

#include <QString>

#include <optional>
#include <vector>

namespace ts {

// One tensor of a conversion: where it comes from, what it becomes, and (after the report
// pass) what the conversion does to its values.
struct PlannedTensor {
    QString sourceName;
    QString sourceFile;
    QString name; // after renaming
    Dtype from = Dtype::F32;
    Dtype to = Dtype::F32;
    Shape shape;
    std::uint64_t elements = 0;
    TensorLocation input;
    ConversionCounts counts;
    bool measured = false;
    QString note; // why a floating tensor kept its dtype, for the report

    bool converts() const { return from != to; }
    // What a reviewer must look at before writing (the Convert dialog's "Problems only"): values
    // the conversion breaks (overflow, underflow to zero), NaN or Inf already in the source, or a
    // note, which says the tensor keeps a dtype it was asked to leave.
    bool hasProblem() const
    {
        return !note.isEmpty() ||
               (measured && (counts.overflowed || counts.underflowed || counts.nan || counts.inf));
    }
    std::uint64_t bytesBefore() const { return input.length; }
    std::uint64_t bytesAfter() const { return elements * static_cast<std::uint64_t>(dtypeBits(to)) / 8; }
};

struct ConvertPlan {
    std::vector<PlannedTensor> tensors; // sorted by output name
    std::optional<Metadata> metadata;
    QStringList inputFiles; // every file read, to refuse writing over one

    std::uint64_t bytesBefore() const;
    std::uint64_t bytesAfter() const;
    ConversionCounts totalCounts() const;
};

} // namespace ts
