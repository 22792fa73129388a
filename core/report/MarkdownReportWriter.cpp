#include "report/MarkdownReportWriter.h"

#include "base/Format.h"
#include "base/TerminalText.h"
#include "metadata/MetadataKeys.h"

namespace ts {
namespace {

// Inline text in a table cell: visible escapes for controls and bidi overrides, then what
// Markdown or HTML would act on escaped (so `<img src=...>` or `![x](http://...)` in a tensor
// name stays text and makes no request when rendered).
QString md(const QString& value, qsizetype maxChars = 1000)
{
    const QString safe = terminalSafe(elideText(value, maxChars));
    QString out;
    out.reserve(safe.size() + 8);
    for (QChar c : safe) {
        // Entities for what HTML would take as markup (renderers that pass HTML through decode
        // them to text), a backslash before every other character Markdown acts on.
        if (c == QLatin1Char('<'))
            out += QLatin1String("&lt;");
        else if (c == QLatin1Char('>'))
            out += QLatin1String("&gt;");
        else if (c == QLatin1Char('&'))
            out += QLatin1String("&amp;");
        else {
            // Emphasis, code, links and images (their brackets), table cells, strikethrough;
            // what acts only at the start of a line (# - + 1.) never starts one here.
            if (QStringLiteral("\\`*_[]|~").contains(c))
                out += QLatin1Char('\\');
            out += c;
        }
    }
    return out;
}

QString code(const QString& value)
{
    return QStringLiteral("`") + QString(value).replace(QLatin1Char('`'), QLatin1Char('\'')) +
           QStringLiteral("`");
}

void line(QString& out, const QString& text = {})
{
    out += text + QLatin1Char('\n');
}

void findingTable(QString& out, const QString& source, const std::vector<Diagnostic>& list,
                  std::size_t& shown)
{
    for (const Diagnostic& d : list) {
        if (shown++ >= MarkdownReportWriter::kMaxFindingsShown)
            return;
        line(out, QStringLiteral("| %1 | %2 | %3 | %4 | %5 |")
                      .arg(severityName(d.severity), source, md(d.code), md(d.message), md(d.tensor, 200)));
    }
}

} // namespace

QByteArray MarkdownReportWriter::write(const AuditReport& r)
{
    QString out;
    const std::vector<Diagnostic> all = r.allFindings();
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : all) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
    }
    line(out, QStringLiteral("# Audit report: %1").arg(md(r.title)));
    line(out);
    line(out, QStringLiteral("%1 - generated %2 by %3.").arg(md(r.opened), md(r.generatedAt), md(r.tool)));
    line(out);
    line(out, QStringLiteral("**%1, %2, %3**%4")
                  .arg(formatNoun(errors, "error", "errors"), formatNoun(warnings, "warning", "warnings"),
                       formatNoun(all.size() - errors - warnings, "note", "notes"),
                       r.scanned ? QString() : QStringLiteral(" (values not read)")));

    line(out);
    line(out, QStringLiteral("## Files"));
    line(out);
    line(out, md(r.hashNote) + QStringLiteral("."));
    line(out);
    line(out, QStringLiteral("| File | Role | Size (bytes) | SHA-256 |"));
    line(out, QStringLiteral("|---|---|---:|---|"));
    for (const FileDigest& f : r.files)
        line(out, QStringLiteral("| %1 | %2 | %3 | %4 |")
                      .arg(md(f.name), md(f.role), formatGrouped(f.size),
                           f.sha256.isEmpty() ? QStringLiteral("-") : code(f.sha256)));

    const HubParameterCount& hub = r.profile.hub;
    line(out);
    line(out, QStringLiteral("## Summary"));
    line(out);
    line(out, QStringLiteral("| | |"));
    line(out, QStringLiteral("|---|---|"));
    line(out, QStringLiteral("| Architecture | %1 |")
                  .arg(md(r.profile.architecture.recognized() ? r.profile.architecture.name
                                                              : QStringLiteral("not recognised"))));
    line(out, QStringLiteral("| Parameters (as the Hub counts) | %1 |")
                  .arg(hub.counted ? QStringLiteral("%1 (%2)").arg(formatGrouped(hub.total()),
                                                                   formatCount(hub.total()))
                                   : QStringLiteral("-")));
    line(out, QStringLiteral("| Elements | %1 |").arg(formatGrouped(r.elements)));
    line(out, QStringLiteral("| Tensors | %1 |").arg(formatGrouped(r.tensorCount)));
    line(out, QStringLiteral("| Tensor data | %1 (%2 bytes) |")
                  .arg(formatBytes(r.tensorBytes), formatGrouped(r.tensorBytes)));
    line(out, QStringLiteral("| Format | %1, %2 |").arg(md(r.formatName), md(r.kind)));
    line(out);
    line(out, QStringLiteral("| Dtype | Tensors | Elements | Bytes |"));
    line(out, QStringLiteral("|---|---:|---:|---:|"));
    for (const DtypeLine& d : r.dtypes)
        line(out, QStringLiteral("| %1 | %2 | %3 | %4 |")
                      .arg(dtypeName(d.dtype), formatGrouped(d.tensors), formatGrouped(d.elements),
                           formatGrouped(d.bytes)));

    line(out);
    line(out, QStringLiteral("## Architecture"));
    const ConfigCheckResult& config = r.profile.config;
    line(out);
    line(out, config.found() ? QStringLiteral("Compared with %1.").arg(code(config.path))
                             : QStringLiteral("No config.json beside the weights."));
    for (const QString& note : r.profile.architecture.notes) {
        line(out);
        line(out, md(note));
    }
    for (const ArchitectureComponent& c : r.profile.architecture.components) {
        line(out);
        line(out, QStringLiteral("### %1: %2").arg(md(c.role), md(c.name)));
        if (!c.detail.isEmpty()) {
            line(out);
            line(out, md(c.detail));
        }
        line(out);
        line(out, QStringLiteral("| Field | From the weights | Evidence | config.json |"));
        line(out, QStringLiteral("|---|---|---|---|"));
        for (const ArchitectureField& f : c.fields) {
            if (!f.shown)
                continue;
            QString cfg;
            for (const ConfigComparison& cmp : config.comparisons) {
                if (cmp.component == c.role && cmp.key == f.key)
                    cfg = QStringLiteral("%1 = %2%3")
                              .arg(code(cmp.configKey), md(cmp.config),
                                   !cmp.compared ? QString()
                                   : cmp.agrees  ? QStringLiteral(" (agrees)")
                                                 : QStringLiteral(" **(disagrees)**"));
            }
            line(out, QStringLiteral("| %1 | %2 | %3 | %4 |")
                          .arg(md(f.label), md(f.display()), md(f.evidence), cfg));
        }
    }
    if (!r.profile.pipeline.empty()) {
        line(out);
        line(out, QStringLiteral("| Pipeline component | Class | Architecture | Elements |"));
        line(out, QStringLiteral("|---|---|---|---:|"));
        for (const PipelinePart& p : r.profile.pipeline)
            line(out,
                 QStringLiteral("| %1%2 | %3 | %4 | %5 |")
                     .arg(md(p.name), p.opened ? QStringLiteral(" (this report)") : QString(), md(p.type),
                          md(p.problem.isEmpty() ? p.architecture : p.problem), formatGrouped(p.parameters)));
    }

    line(out);
    line(out, QStringLiteral("## Parameters"));
    line(out);
    line(out, md(hub.weights.rule) + QStringLiteral("."));
    if (hub.counted) {
        line(out);
        line(out, QStringLiteral("| Dtype | Parameters (Hub) | Stored elements | Tensors |"));
        line(out, QStringLiteral("|---|---:|---:|---:|"));
        for (const HubDtypeCount& d : hub.dtypes)
            line(out, QStringLiteral("| %1 | %2 | %3 | %4 |")
                          .arg(dtypeName(d.dtype), formatGrouped(d.parameters), formatGrouped(d.elements),
                               formatGrouped(d.tensors)));
        line(out,
             QStringLiteral("| **total** | **%1** | %2 | %3 |")
                 .arg(formatGrouped(hub.total()), formatGrouped(hub.elements), formatGrouped(hub.tensors)));
        if (hub.skippedTensors) {
            line(out);
            line(out, QStringLiteral("Left out as the Hub leaves them out: %1 (%2 elements).")
                          .arg(formatNoun(hub.skippedTensors, "tensor", "tensors"),
                               formatGrouped(hub.skippedElements)));
        }
    }

    line(out);
    line(out, QStringLiteral("## Findings"));
    line(out);
    line(out, md(r.scanNote));
    if (!all.empty()) {
        line(out);
        line(out, QStringLiteral("| Severity | Source | Code | Message | Tensor |"));
        line(out, QStringLiteral("|---|---|---|---|---|"));
        std::size_t shown = 0;
        findingTable(out, QStringLiteral("architecture"), r.profile.findings(), shown);
        findingTable(out, QStringLiteral("scan"), r.scanFindings, shown);
        findingTable(out, QStringLiteral("format"), r.validation, shown);
        if (all.size() > kMaxFindingsShown) {
            line(out);
            line(out, QStringLiteral("%1 more findings are in the JSON report.")
                          .arg(formatGrouped(all.size() - kMaxFindingsShown)));
        }
    }

    line(out);
    line(out, QStringLiteral("## Per-layer statistics"));
    line(out);
    if (r.layers.empty()) {
        line(out, r.scanned ? QStringLiteral("No per-layer statistics.")
                            : QStringLiteral("No scan: the values were not read."));
    } else {
        line(out, QStringLiteral("| Family | Blocks | Flagged blocks |"));
        line(out, QStringLiteral("|---|---:|---|"));
        for (const LayerSeries& s : r.layers) {
            QStringList flagged;
            for (int b : s.flagged)
                flagged << QString::number(b);
            line(out, QStringLiteral("| %1 | %2 | %3 |")
                          .arg(md(s.pattern), QString::number(s.blocks.size()),
                               flagged.isEmpty() ? QStringLiteral("-") : flagged.join(QStringLiteral(", "))));
        }
    }

    line(out);
    line(out, QStringLiteral("## Metadata"));
    line(out);
    if (!r.metadata || r.metadata->isEmpty()) {
        line(out, r.metadata ? QStringLiteral("An empty map.") : QStringLiteral("No __metadata__."));
    } else {
        line(out, QStringLiteral("| Key | Value | Meaning |"));
        line(out, QStringLiteral("|---|---|---|"));
        for (const auto& [key, value] : r.metadata->entries()) {
            QString meaning;
            if (const auto e = MetadataKeys::explain(key, value))
                meaning =
                    md(e->meaning + (e->decoded.isEmpty() ? QString() : QStringLiteral(" ") + e->decoded));
            line(out,
                 QStringLiteral("| %1 | %2 | %3 |").arg(md(key, 200), md(value, kMaxValueChars), meaning));
        }
    }
    return out.toUtf8();
}

} // namespace ts
