#pragma once

#include "base/ProgressSink.h"

#include <QString>

namespace ts {

// One line for a terminal: "[#########           ]  45%  1.2 GiB / 2.7 GiB  3.4 GiB/s  ETA 2 s".
// The CLI redraws it with '\r'; the window shows the same numbers in its status bar.
QString progressLine(const Progress& progress, int barWidth = 30);

} // namespace ts
