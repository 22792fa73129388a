#pragma once

#include <cstdint>

namespace ts::pickle {

// Bounds on what reading a pickle may cost. A pickle is a program: 20 bytes can ask for a memo
// slot four billion entries up, a few kilobytes for 2^40 paths to one object. Real checkpoints
// stay far below these (a 100,000-tensor state dict: about 4 M values, a stack of a few
// thousand); past them the reader stops with PickleLimit and keeps what it found so far.
struct PickleLimits {
    std::uint64_t maxHeapBytes = 1ull << 30;   // values, strings and containers together
    std::uint64_t maxStack = 16u << 20;        // entries on the stack, all marks together
    std::uint64_t maxMemo = 32u << 20;         // memo entries
    std::uint64_t maxPickleBytes = 4ull << 30; // a pickle read into memory (an inflated member)
    std::uint64_t maxWalkSteps = 16u << 20;    // visits while naming tensors in the object graph
    std::uint32_t maxWalkDepth = 1000;         // nesting followed while naming tensors
    std::uint64_t maxTensors = 4u << 20;       // named tensors in one checkpoint
    std::uint32_t maxRank = 64;                // dimensions of one tensor
    int maxNesting = 2;                        // archives inside archives that are searched
};

} // namespace ts::pickle
