#pragma once

#include "report/AuditReport.h"

#include <QByteArray>

namespace ts {

// The report as one self-contained HTML file: inline CSS, charts as inline SVG, no script, no
// font, image or link to fetch (a Content-Security-Policy of default-src 'none' says so to the
// browser as well), so it opens offline in any browser and leaks nothing when it is opened.
// Every value from the model is escaped (html::text) and long ones are cut.
class HtmlReportWriter {
public:
    static QByteArray write(const AuditReport& report);
    // Findings listed at most; the JSON has them all.
    static constexpr std::size_t kMaxFindingsShown = 2000;
    static constexpr qsizetype kMaxValueChars = 4000;
};

} // namespace ts
