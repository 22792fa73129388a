#pragma once

#include "checkpoint/Checkpoint.h"

namespace ts {

// Whether `a` and `b` list the same tensors in the same order: names, dtypes, shapes, parts and
// byte ranges in their part's data. Two opens of one file between which only the header's metadata changed (a
// metadata save, in place or rewritten) agree here, and so do their data bytes: results computed from the
// values of one hold for the other. Says nothing about the bytes themselves.
bool sameTensorLayout(const Checkpoint& a, const Checkpoint& b);

} // namespace ts
