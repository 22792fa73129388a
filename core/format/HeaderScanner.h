#pragma once

#include "format/Metadata.h"
#include "format/TensorInfo.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ts {

class NameArena;

// The common case of a header read in one strict pass over its bytes, in front of the simdjson
// DOM: tensor entries with exactly dtype, shape and data_offsets (or the [dtype, shape, offsets]
// array form), plain non-negative integers, names without escapes, unique names, at most one
// "__metadata__" object of strings. Anything else, valid or not, gives nullopt and the DOM reader
// decides, so every error and every leniency keeps its one implementation there.
//
// Why: at 4 M tensors the DOM of a 100 MB header took 500 MB and its walk made a QString, a
// vector and a hash node per tensor. Here the text is read twice (count, then fill) so the
// tensors and one arena of names are allocated once, at their final size, and nothing per tensor.
class HeaderScanner {
public:
    struct Scan {
        std::vector<TensorInfo> tensors; // header order
        std::optional<Metadata> metadata;
        // Tensors written in the array form: how many, and the first few (header order) by index.
        std::uint64_t arrayForms = 0;
        std::vector<std::size_t> firstArrayForms;
    };

    // `listed`: how many array-form tensors to remember by index.
    static std::optional<Scan> scan(std::string_view json, std::size_t listed);

private:
    HeaderScanner(std::string_view json, Scan* fill) : m_json(json), m_fill(fill) {}

    bool top();
    bool tensorEntry(std::string_view name);
    bool tensorObject(TensorInfo* info);
    bool tensorArray(TensorInfo* info);
    bool metadata();
    bool dtype(TensorInfo* info);
    bool shape(TensorInfo* info);
    bool offsets(TensorInfo* info);
    bool number(std::uint64_t& value);
    bool plainString(std::string_view& text); // no escapes, no control characters
    bool anyString(QString* text);            // escapes decoded (metadata)
    bool expect(char c);
    bool peek(char c);
    void skipSpace();

    std::string_view m_json;
    std::size_t m_at = 0;
    Scan* m_fill;                 // null on the counting pass
    NameArena* m_names = nullptr; // fill pass only
    std::size_t m_tensors = 0;    // counted
    std::size_t m_nameBytes = 0;  // counted
    std::size_t m_listed = 0;
    bool m_sawMetadata = false;
};

} // namespace ts
