#pragma once

#include "format/TensorInfo.h"

namespace ts {

// The reference writer's buffer order: dtype descending in declaration order, then name
// ascending by UTF-8 bytes.
bool writerOrderLess(const TensorInfo& a, const TensorInfo& b);
bool writerOrderLess(Dtype dtypeA, const QString& nameA, Dtype dtypeB, const QString& nameB);

} // namespace ts
