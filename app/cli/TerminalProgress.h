#pragma once

namespace ts {
class ModelScanner;
}

namespace ts::cli {

// A scan's progress bar on stderr, redrawn in place, only when a person is watching: never in
// pipes or CI logs. `scan` and `stats` both show it; clear it before printing the results.
void showScanProgress(ModelScanner& scanner);
// Whether stderr is a terminal: the one POSIX call of the CLI (installer/README.md, Platforms).
bool stderrIsTerminal();
void clearScanProgress();

} // namespace ts::cli
