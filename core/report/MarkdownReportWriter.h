#pragma once

#include "report/AuditReport.h"

#include <QByteArray>

namespace ts {

// The report as Markdown, for a pull request, an issue or a model card: the same sections as
// the HTML in GitHub-flavoured tables, without the charts (the per-layer section lists the
// flagged blocks instead). Values are escaped so that a name cannot break a table or inject
// markup or a link.
class MarkdownReportWriter {
public:
    static QByteArray write(const AuditReport& report);
    static constexpr std::size_t kMaxFindingsShown = 500;
    static constexpr qsizetype kMaxValueChars = 300;
};

} // namespace ts
