#pragma once

#include "base/CancelToken.h"
#include "base/ProgressSink.h"

namespace ts {

// How long work is steered from outside: the token it polls and the sink it reports to. The core's
// long operations (scans, tensor reads, writes, conversions) take one; the window's JobRunner
// hands one to every job it starts, and the CLI makes one for its terminal progress line.
struct JobControl {
    CancelToken cancel;
    ProgressSink progress;
};

} // namespace ts
