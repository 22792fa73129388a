#pragma once

#include "pickle/GlobalPolicy.h"
#include "pickle/TorchDtype.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ts::pickle {

// Values live in a PickleHeap and are named by index, so the memo, the stack and containers
// share them (a pickle's memo makes a graph, cycles included) without reference counting.
using ValueId = std::uint32_t;
inline constexpr ValueId kNoValue = 0xFFFFFFFFu;

enum class Kind : std::uint8_t {
    None,
    Bool,
    Int,    // fits in int64
    BigInt, // LONG beyond 64 bits: the little-endian two's complement bytes in text
    Float,
    Str,
    Bytes,
    Tuple,
    List,
    Dict, // items are key, value, key, value, ... (dict, OrderedDict, Counter)
    Set,
    Global,  // a global the file names; what calling it means is in its GlobalRef
    Object,  // what an unknown or unsupported call, NEWOBJ, INST or OBJ made: nothing was run
    Storage, // a persistent id that names a storage
    Tensor,  // what a tensor rebuild function made
};

struct Value {
    Kind kind = Kind::None;
    std::uint32_t ref = 0;   // index into the heap's side table of this kind
    std::int64_t number = 0; // Bool and Int value; Float bits
};

// A global as the file names it and as Tensorscope understands it.
struct GlobalRef {
    std::string module;
    std::string name;
    GlobalVerdict verdict;
    std::uint64_t offset = 0; // absolute offset of the opcode that named it
};

// An opaque object: the callee and what it was given, kept so that tensors passed to it (a whole
// pickled nn.Module keeps its parameters in its BUILD state) can still be found and named.
struct ObjectRec {
    ValueId callee = kNoValue;
    ValueId args = kNoValue;
    ValueId state = kNoValue;    // BUILD
    ValueId appended = kNoValue; // a List of what APPEND(S) gave it, or a Dict of SETITEM(S)
    std::uint64_t offset = 0;
};

struct StorageRec {
    std::string key;
    TorchDtype dtype = TorchDtype::UInt8;
    std::uint64_t numel = 0; // elements of dtype
    std::string location;    // "cpu", "cuda:0"
    // A legacy storage view: elements [viewOffset, viewOffset + numel) of the storage rootKey.
    bool isView = false;
    std::string rootKey;
    std::uint64_t viewOffset = 0;
    std::uint64_t offset = 0; // absolute offset of the persistent id in the file
};

struct TensorRec {
    ValueId storage = kNoValue;
    TorchDtype dtype = TorchDtype::Float32;
    std::uint64_t storageOffset = 0; // elements
    std::vector<std::uint64_t> shape;
    std::vector<std::uint64_t> stride;
    bool parameter = false;
    bool requiresGrad = false;
    std::uint64_t offset = 0; // absolute offset of the call that made it
};

} // namespace ts::pickle
