#pragma once

#include <QString>

namespace ts {

// The report's stylesheet, inlined in its <style>: system fonts only (nothing to fetch), a dark
// variant for readers whose system is dark, and print rules that keep tables on the page.
QString reportStyle();

} // namespace ts
