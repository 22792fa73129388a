#include "report/ReportOutput.h"

#include "report/HtmlReportWriter.h"
#include "report/JsonReportWriter.h"
#include "report/MarkdownReportWriter.h"
#include "write/AtomicFile.h"

#include <QDir>
#include <QFileInfo>

namespace ts {

std::optional<ReportFormat> ReportOutput::formatFor(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm"))
        return ReportFormat::Html;
    if (suffix == QLatin1String("json"))
        return ReportFormat::Json;
    if (suffix == QLatin1String("md") || suffix == QLatin1String("markdown"))
        return ReportFormat::Markdown;
    return std::nullopt;
}

QString ReportOutput::extension(ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return QStringLiteral("html");
    case ReportFormat::Json:
        return QStringLiteral("json");
    case ReportFormat::Markdown:
        return QStringLiteral("md");
    }
    return {};
}

QString ReportOutput::sibling(const QString& path, ReportFormat format)
{
    const QFileInfo info(path);
    const QString base = formatFor(path) ? info.completeBaseName() : info.fileName();
    return info.dir().filePath(base + QLatin1Char('.') + extension(format));
}

QByteArray ReportOutput::render(const AuditReport& report, ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return HtmlReportWriter::write(report);
    case ReportFormat::Json:
        return JsonReportWriter::write(report);
    case ReportFormat::Markdown:
        return MarkdownReportWriter::write(report);
    }
    return {};
}

Result<void> ReportOutput::write(const QString& path, const QByteArray& bytes, const InputFiles& inputs,
                                 bool overwrite)
{
    if (auto refused = inputs.refuseOverwrite(path, QStringLiteral("write the report somewhere else"));
        !refused)
        return refused.error();
    if (!overwrite && QFileInfo::exists(path))
        return makeError(
            ErrorCode::InvalidArgument, path,
            QStringLiteral("the file exists; choose another name or allow replacing it (--force)"));
    AtomicFile file(path);
    if (auto opened = file.open(); !opened)
        return opened.error();
    if (auto written =
            file.write(std::as_bytes(std::span(bytes.constData(), static_cast<std::size_t>(bytes.size()))));
        !written)
        return written.error();
    return file.commit();
}

} // namespace ts
