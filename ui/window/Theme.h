#pragma once

#include <QString>

namespace ts::ui {

// The application's colours: the platform's own look, or Fusion in light or dark. Chosen in
// View > Theme and kept in QSettings; `--dark` overrides the stored choice for one run.
class Theme {
public:
    enum Kind { System, Light, Dark };

    // Applies `kind` to the whole application at once (open windows repaint).
    static void apply(Kind kind);
    static Kind current();
    // The View > Theme choice: stores it and applies it.
    static void choose(Kind kind);
    // Applies `kind` for this run only; applyStored() then leaves it alone.
    static void overrideForThisRun(Kind kind);
    // The stored choice, unless overridden for this run.
    static void applyStored();
    static Kind stored();
    static QString name(Kind kind);
};

} // namespace ts::ui
