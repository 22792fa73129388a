#pragma once

#include "convert/DtypeConverter.h"
#include "io/ByteSource.h"
#include "io/TensorLocation.h"

#include <atomic>

namespace ts {

// One tensor's bytes in another dtype, converted as they are read. Handing this to
// SafetensorsWriter::write makes a converted file with the writer's own layout, atomic save,
// progress and cancel: conversion needs no writing code of its own.
class ConvertingSource final : public ByteSource {
public:
    // `countInfinities`: also count the source's ±Inf (the report pass asks; the write does not
    // read the counts and keeps its speed).
    ConvertingSource(TensorLocation input, Dtype from, Dtype to, std::uint64_t elements, QString name,
                     bool countInfinities = false);

    QString displayName() const override { return m_name; }
    std::uint64_t size() const override { return m_elements * m_outSize; }
    Result<void> read(std::uint64_t offset, std::span<std::byte> dst) const override;

    // What the reads so far did to the values (each element once if the whole tensor was read once),
    // with the source's ±Inf count when asked for.
    ConversionCounts counts() const;
    void resetCounts() const;

private:
    TensorLocation m_input;
    Dtype m_from;
    Dtype m_to;
    std::uint64_t m_elements;
    std::uint64_t m_inSize;
    std::uint64_t m_outSize;
    QString m_name;
    bool m_countInfinities;
    mutable std::atomic<std::uint64_t> m_overflowed{0};
    mutable std::atomic<std::uint64_t> m_underflowed{0};
    mutable std::atomic<std::uint64_t> m_nan{0};
    mutable std::atomic<std::uint64_t> m_inf{0};
};

} // namespace ts
