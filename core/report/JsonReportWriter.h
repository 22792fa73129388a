#pragma once

#include "report/AuditReport.h"

#include <QByteArray>

namespace ts {

// The report as JSON for scripts: the same sections as the HTML with every finding (the HTML
// lists at most HtmlReportWriter::kMaxFindingsShown) and the per-layer series as numbers.
// 64-bit counts stay exact (JsonWriter). Metadata values longer than kMaxValueChars are cut,
// with the count of what was left out beside them.
class JsonReportWriter {
public:
    static QByteArray write(const AuditReport& report);
    static constexpr qsizetype kMaxValueChars = 65536;
    // The schema's version: scripts check it before they read the rest.
    static constexpr int kVersion = 1;
};

} // namespace ts
