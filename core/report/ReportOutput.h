#pragma once

#include "base/Result.h"
#include "report/AuditReport.h"
#include "write/InputFiles.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace ts {

enum class ReportFormat { Html, Json, Markdown };

// Writing a report where the user asked, and only there: atomically (AtomicFile: a full disk
// or a crash never leaves half a report under the name), never over one of the model's own
// files (InputFiles), and over an existing file only when asked to.
class ReportOutput {
public:
    // From the extension: .html/.htm, .json, .md/.markdown; nullopt for anything else.
    static std::optional<ReportFormat> formatFor(const QString& path);
    static QString extension(ReportFormat format); // "html", "json", "md"
    // `path` with its extension replaced for `format`: report.html -> report.json.
    static QString sibling(const QString& path, ReportFormat format);
    static QByteArray render(const AuditReport& report, ReportFormat format);
    static Result<void> write(const QString& path, const QByteArray& bytes, const InputFiles& inputs,
                              bool overwrite);
};

} // namespace ts
