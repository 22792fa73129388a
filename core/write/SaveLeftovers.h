#pragma once

#include "base/Diagnostic.h"

#include <QString>

#include <vector>

namespace ts {

// What interrupted saves left beside a model file, as audit-list entries, found without writing
// anything (reading never writes): a pending journal (InterruptedSave, with what a
// restore would do) and hidden temporaries of killed full rewrites (LeftoverTemporary, with their
// size). Acting on them is explicit: tensorscope-cli recover, or the window's banner and Remove.
class SaveLeftovers {
public:
    static std::vector<Diagnostic> diagnose(const QString& file);
};

} // namespace ts
