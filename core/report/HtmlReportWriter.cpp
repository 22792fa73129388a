#include "report/HtmlReportWriter.h"

#include "base/Format.h"
#include "metadata/MetadataKeys.h"
#include "report/HtmlText.h"
#include "report/ReportStyle.h"
#include "report/SvgChart.h"

#include <cmath>

namespace ts {
namespace {

using html::text;

QString severityText(Severity s)
{
    return severityName(s);
}

QString fact(const QString& key, const QString& value, const QString& tip = {})
{
    return QStringLiteral("<div class=\"fact\"%3><div class=\"k\">%1</div><div class=\"v\">%2</div></div>")
        .arg(text(key), text(value),
             tip.isEmpty() ? QString() : QStringLiteral(" title=\"%1\"").arg(text(tip)));
}

QString bytesCell(std::uint64_t n)
{
    return QStringLiteral("<td class=\"num\" title=\"%1 bytes\">%2</td>")
        .arg(formatGrouped(n), text(formatBytes(n)));
}

void header(QString& out, const AuditReport& r)
{
    const std::vector<Diagnostic> all = r.allFindings();
    int errors = 0, warnings = 0;
    for (const Diagnostic& d : all) {
        errors += d.severity == Severity::Error;
        warnings += d.severity == Severity::Warning;
    }
    const auto notes = static_cast<std::uint64_t>(all.size()) - errors - warnings;
    out += QStringLiteral("<header><h1>%1</h1>").arg(text(r.title));
    out += QStringLiteral(
               "<p class=\"sub\">Audit report of <span class=\"mono\">%1</span>, generated %2 by %3.</p>")
               .arg(text(r.opened), text(r.generatedAt), text(r.tool));
    const QString cls = errors     ? QStringLiteral("error")
                        : warnings ? QStringLiteral("warn")
                                   : QStringLiteral("ok");
    QString verdict =
        QStringLiteral("%1, %2, %3")
            .arg(formatNoun(errors, "error", "errors"), formatNoun(warnings, "warning", "warnings"),
                 formatNoun(notes, "note", "notes"));
    if (!r.scanned)
        verdict += QStringLiteral(" (values not read)");
    out += QStringLiteral("<div class=\"verdict %1\">%2</div></header>").arg(cls, text(verdict));
    out += QStringLiteral("<nav><a href=\"#files\">Files</a><a href=\"#summary\">Summary</a>"
                          "<a href=\"#architecture\">Architecture</a><a href=\"#parameters\">Parameters</a>"
                          "<a href=\"#findings\">Findings</a><a href=\"#layers\">Per-layer statistics</a>"
                          "<a href=\"#metadata\">Metadata</a></nav>");
}

void files(QString& out, const AuditReport& r)
{
    out += QStringLiteral("<section id=\"files\"><h2>Files</h2>");
    out += QStringLiteral(
               "<p class=\"note\">%1. The SHA-256 is of each file's whole contents, as the Hugging Face Hub "
               "lists it in a file's LFS details.</p>")
               .arg(text(r.hashNote));
    out += QStringLiteral(
        "<table><tr><th>File</th><th>Role</th><th class=\"num\">Size</th><th>SHA-256</th></tr>");
    for (const FileDigest& f : r.files)
        out += QStringLiteral("<tr><td class=\"wrap mono\" title=\"%1\">%2</td><td>%3</td>%4<td class=\"mono "
                              "hash\">%5</td></tr>")
                   .arg(text(f.path), text(f.name), text(f.role), bytesCell(f.size),
                        f.sha256.isEmpty() ? QStringLiteral("<span class=\"muted\">not hashed</span>")
                                           : text(f.sha256));
    out += QStringLiteral("</table></section>");
}

void summary(QString& out, const AuditReport& r)
{
    const HubParameterCount& hub = r.profile.hub;
    out += QStringLiteral("<section id=\"summary\"><h2>Summary</h2><div class=\"facts\">");
    out += fact(QStringLiteral("Architecture"), r.profile.architecture.recognized()
                                                    ? r.profile.architecture.name
                                                    : QStringLiteral("not recognised"));
    out +=
        fact(QStringLiteral("Parameters (Hub)"), hub.counted ? formatCount(hub.total()) : QStringLiteral("-"),
             hub.counted ? formatGrouped(hub.total()) : QString());
    out += fact(QStringLiteral("Elements"), formatCount(r.elements), formatGrouped(r.elements));
    out += fact(QStringLiteral("Tensors"), formatGrouped(r.tensorCount));
    out += fact(QStringLiteral("Tensor data"), formatBytes(r.tensorBytes),
                formatGrouped(r.tensorBytes) + QStringLiteral(" bytes"));
    out += fact(QStringLiteral("Files"), formatBytes(r.fileBytes),
                formatGrouped(r.fileBytes) + QStringLiteral(" bytes"));
    out += fact(QStringLiteral("Header"), formatBytes(r.headerBytes),
                formatGrouped(r.headerBytes) + QStringLiteral(" bytes"));
    out += fact(QStringLiteral("Format"), r.formatName + QStringLiteral(", ") + r.kind);
    out += fact(QStringLiteral("Metadata keys"), QString::number(r.metadata ? r.metadata->size() : 0));
    out += QStringLiteral("</div>");
    std::vector<std::pair<QString, double>> rows;
    QStringList values;
    for (const DtypeLine& d : r.dtypes) {
        rows.emplace_back(dtypeName(d.dtype), static_cast<double>(d.elements));
        values << QStringLiteral("%1 elements, %2").arg(formatCount(d.elements), formatBytes(d.bytes));
    }
    out += QStringLiteral("<h3>Elements and bytes per dtype</h3>");
    out += svg::bars(QStringLiteral("Elements per dtype"), rows, values, QStringLiteral("var(--accent)"));
    out += QStringLiteral(
        "<table><tr><th>Dtype</th><th class=\"num\">Tensors</th><th class=\"num\">Elements</th>"
        "<th class=\"num\">Bytes</th></tr>");
    for (const DtypeLine& d : r.dtypes)
        out += QStringLiteral("<tr><td>%1</td><td class=\"num\">%2</td><td class=\"num\">%3</td>%4</tr>")
                   .arg(dtypeName(d.dtype), formatGrouped(d.tensors), formatGrouped(d.elements),
                        bytesCell(d.bytes));
    out += QStringLiteral("</table></section>");
}

void architecture(QString& out, const AuditReport& r)
{
    const Architecture& a = r.profile.architecture;
    const ConfigCheckResult& config = r.profile.config;
    out += QStringLiteral("<section id=\"architecture\"><h2>Architecture</h2>");
    out += QStringLiteral("<p><strong>%1</strong></p>")
               .arg(text(a.recognized() ? a.name : QStringLiteral("Not recognised")));
    QStringList names;
    for (const QString& n : {config.architecture, config.modelType}) {
        if (!n.isEmpty())
            names << n;
    }
    if (config.found())
        out += QStringLiteral("<p class=\"note\">Compared with <span class=\"mono\">%1</span>%2.</p>")
                   .arg(text(config.path), names.isEmpty() ? QString()
                                                           : text(QStringLiteral(", which names ") +
                                                                  names.join(QStringLiteral(" / "))));
    else
        out += QStringLiteral(
            "<p class=\"note\">No config.json beside the weights: the configuration below is what the "
            "names and shapes say, with nothing to compare it with.</p>");
    for (const QString& note : a.notes)
        out += QStringLiteral("<p class=\"note\">%1</p>").arg(text(note));
    for (const ArchitectureComponent& c : a.components) {
        out += QStringLiteral("<h3>%1: %2</h3>").arg(text(c.role), text(c.name));
        if (!c.detail.isEmpty() || !c.prefix.isEmpty())
            out += QStringLiteral("<p class=\"note\">%1%2</p>")
                       .arg(text(c.detail),
                            c.prefix.isEmpty()
                                ? QString()
                                : QStringLiteral(" &middot; tensors under <span class=\"mono\">%1</span>")
                                      .arg(text(c.prefix)));
        out += QStringLiteral(
            "<table><tr><th>Field</th><th>From the weights</th><th>Evidence</th><th>config.json</th></tr>");
        for (const ArchitectureField& f : c.fields) {
            if (!f.shown)
                continue;
            QString configCell;
            for (const ConfigComparison& cmp : config.comparisons) {
                if (cmp.component == c.role && cmp.key == f.key) {
                    const QString mark =
                        !cmp.compared ? QString()
                        : cmp.agrees  ? QStringLiteral(" <span class=\"agree\">&#10003;</span>")
                                      : QStringLiteral(" <span class=\"disagree\">&#10007; disagrees</span>");
                    configCell = QStringLiteral("<span class=\"mono\">%1</span> = %2%3")
                                     .arg(text(cmp.configKey), text(cmp.config), mark);
                }
            }
            out += QStringLiteral("<tr><td>%1 <span class=\"muted mono\">%2</span></td><td>%3</td><td "
                                  "class=\"note wrap\">%4</td><td>%5</td></tr>")
                       .arg(text(f.label), text(f.key),
                            f.known() ? text(f.display())
                                      : QStringLiteral("<span class=\"muted\">cannot tell</span>"),
                            text(f.evidence), configCell);
        }
        out += QStringLiteral("</table>");
    }
    if (!r.profile.pipeline.empty()) {
        out += QStringLiteral(
            "<h3>Pipeline components</h3><table><tr><th>Component</th><th>Class</th><th>Architecture</th>"
            "<th class=\"num\">Elements</th></tr>");
        for (const PipelinePart& p : r.profile.pipeline)
            out +=
                QStringLiteral("<tr><td>%1%2</td><td>%3</td><td>%4</td><td class=\"num\">%5</td></tr>")
                    .arg(text(p.name),
                         p.opened ? QStringLiteral(" <span class=\"muted\">(this report)</span>") : QString(),
                         text(p.type), text(p.problem.isEmpty() ? p.architecture : p.problem),
                         p.weights.isEmpty() ? QStringLiteral("-") : formatGrouped(p.parameters));
        out += QStringLiteral("</table>");
    }
    out += QStringLiteral("</section>");
}

void parameters(QString& out, const AuditReport& r)
{
    const HubParameterCount& hub = r.profile.hub;
    out += QStringLiteral("<section id=\"parameters\"><h2>Parameters</h2>");
    out += QStringLiteral("<p class=\"note\">How the Hugging Face Hub counts (huggingface.js, "
                          "parse-safetensors-metadata.ts): "
                          "%1.</p>")
               .arg(text(hub.weights.rule));
    if (hub.error)
        out +=
            QStringLiteral("<p>The Hub's weights could not be read: %1</p>").arg(text(hub.error->toString()));
    if (hub.counted) {
        out += QStringLiteral("<div class=\"facts\">%1%2</div>")
                   .arg(fact(QStringLiteral("As the Hub shows it"), formatGrouped(hub.total()),
                             formatCount(hub.total())),
                        fact(QStringLiteral("Plain element count"), formatGrouped(hub.elements)));
        out += QStringLiteral("<table><tr><th>Dtype</th><th class=\"num\">Parameters (Hub)</th><th "
                              "class=\"num\">Stored elements"
                              "</th><th class=\"num\">Tensors</th></tr>");
        for (const HubDtypeCount& d : hub.dtypes)
            out += QStringLiteral("<tr><td>%1</td><td class=\"num\">%2</td><td class=\"num\">%3</td><td "
                                  "class=\"num\">%4</td></tr>")
                       .arg(dtypeName(d.dtype), formatGrouped(d.parameters), formatGrouped(d.elements),
                            formatGrouped(d.tensors));
        out += QStringLiteral("</table>");
        if (hub.skippedTensors)
            out +=
                QStringLiteral(
                    "<p class=\"note\">Left out as the Hub leaves them out: %1 (%2 elements): scalars, block "
                    "scales, zero points and quantisation state.</p>")
                    .arg(formatNoun(hub.skippedTensors, "tensor", "tensors"),
                         formatGrouped(hub.skippedElements));
        if (!hub.quantMethod.isEmpty())
            out +=
                QStringLiteral("<p class=\"note\">config.json declares quantization_config with quant_method "
                               "<span class=\"mono\">%1</span>: packed integer weights count as the values "
                               "they hold.</p>")
                    .arg(text(hub.quantMethod));
        if (hub.declaredTotal)
            out += QStringLiteral("<p class=\"note\">The metadata declares total_parameters = %1; the Hub "
                                  "shows it, capped at "
                                  "the %2 it counts.</p>")
                       .arg(formatGrouped(*hub.declaredTotal), formatGrouped(hub.sum));
    }
    if (!hub.configProblem.isEmpty())
        out += QStringLiteral("<p class=\"note\">%1; the Hub counts without it.</p>")
                   .arg(text(hub.configProblem));
    out += QStringLiteral("</section>");
}

void findingRows(QString& out, const QString& source, const std::vector<Diagnostic>& list, std::size_t& shown)
{
    for (const Diagnostic& d : list) {
        if (shown++ >= HtmlReportWriter::kMaxFindingsShown)
            return;
        out += QStringLiteral("<tr><td class=\"sev %1\">%1</td><td>%2</td><td class=\"mono\">%3</td><td "
                              "class=\"wrap\">%4</td>"
                              "<td class=\"wrap mono\">%5</td></tr>")
                   .arg(severityText(d.severity), text(source), text(d.code), html::cut(d.message, 1000),
                        html::cut(d.tensor, 300));
    }
}

void findings(QString& out, const AuditReport& r)
{
    out += QStringLiteral("<section id=\"findings\"><h2>Findings</h2>");
    out +=
        QStringLiteral(
            "<p class=\"note\">Format: what the header check found. Architecture and config: what the names, "
            "the shapes and config.json say together. Scan: %1</p>")
            .arg(text(r.scanNote));
    const std::size_t total = r.validation.size() + r.profile.findings().size() + r.scanFindings.size();
    if (total == 0) {
        out +=
            QStringLiteral("<p>Nothing to report: the header follows the format exactly%1.</p>")
                .arg(r.scanned ? QStringLiteral(" and the scan found nothing odd in the values") : QString());
    } else {
        out += QStringLiteral(
            "<table><tr><th>Severity</th><th>Source</th><th>Code</th><th>Message</th><th>Tensor</th></tr>");
        std::size_t shown = 0;
        // Errors first within each source, as the audit list shows them.
        auto sorted = [](std::vector<Diagnostic> v) {
            std::stable_sort(v.begin(), v.end(), [](const Diagnostic& a, const Diagnostic& b) {
                return a.severity > b.severity;
            });
            return v;
        };
        findingRows(out, QStringLiteral("architecture"), sorted(r.profile.findings()), shown);
        findingRows(out, QStringLiteral("scan"), sorted(r.scanFindings), shown);
        findingRows(out, QStringLiteral("format"), sorted(r.validation), shown);
        out += QStringLiteral("</table>");
        if (total > HtmlReportWriter::kMaxFindingsShown)
            out += QStringLiteral("<p class=\"note\">%1 more findings are in the JSON report.</p>")
                       .arg(formatGrouped(total - HtmlReportWriter::kMaxFindingsShown));
    }
    out += QStringLiteral("</section>");
}

void layers(QString& out, const AuditReport& r)
{
    out += QStringLiteral("<section id=\"layers\"><h2>Per-layer statistics</h2>");
    if (r.layers.empty()) {
        out += QStringLiteral("<p class=\"note\">%1</p>")
                   .arg(text(!r.scanned ? QStringLiteral("No scan: the values were not read.")
                             : r.scanNanInfOnly
                                 ? QStringLiteral("Only the NaN/Inf check ran, which computes no statistics.")
                                 : QStringLiteral(
                                       "No family of tensors repeats over three or more numbered blocks.")));
    } else {
        out += QStringLiteral("<p class=\"note\">Each chart follows one tensor of every numbered block: its "
                              "standard deviation "
                              "and largest magnitude on a log scale. A block that differs from its siblings "
                              "(LayerOutlier) is "
                              "ringed in red. %1 of %2 families shown.</p>")
                   .arg(r.layers.size())
                   .arg(r.layerFamilies);
        out += QStringLiteral("<div class=\"charts\">");
        for (const LayerSeries& s : r.layers) {
            const std::vector<svg::Series> series = {
                {QStringLiteral("std"), QStringLiteral("var(--accent)"), s.std},
                {QStringLiteral("abs max"), QStringLiteral("var(--accent2)"), s.absmax}};
            out += QStringLiteral("<figure><figcaption class=\"mono\">%1</figcaption>%2</figure>")
                       .arg(text(s.pattern), svg::layerChart(s.pattern, s.blocks, series, s.flagged));
        }
        out += QStringLiteral("</div>");
    }
    out += QStringLiteral("</section>");
}

void metadata(QString& out, const AuditReport& r)
{
    out += QStringLiteral("<section id=\"metadata\"><h2>Metadata</h2>");
    if (!r.metadata || r.metadata->isEmpty()) {
        out += QStringLiteral("<p class=\"note\">%1</p>")
                   .arg(r.metadata ? QStringLiteral("An empty __metadata__ map.")
                                   : QStringLiteral("No __metadata__ in the header."));
    } else {
        out += QStringLiteral("<table><tr><th>Key</th><th>Value</th><th>Meaning</th></tr>");
        for (const auto& [key, value] : r.metadata->entries()) {
            QString meaning;
            if (const auto e = MetadataKeys::explain(key, value)) {
                meaning = QStringLiteral("%1 <span class=\"muted\">(%2)</span>")
                              .arg(text(e->meaning), text(e->origin));
                if (!e->decoded.isEmpty())
                    meaning += QStringLiteral("<br><strong>%1</strong>").arg(text(e->decoded));
            }
            out +=
                QStringLiteral("<tr><td class=\"mono wrap\">%1</td><td><pre class=\"value "
                               "mono\">%2</pre></td><td>%3</td></tr>")
                    .arg(html::cut(key, 300), html::lines(value, HtmlReportWriter::kMaxValueChars), meaning);
        }
        out += QStringLiteral("</table>");
    }
    out += QStringLiteral("</section>");
}

} // namespace

QByteArray HtmlReportWriter::write(const AuditReport& r)
{
    QString out;
    out += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                          "style-src 'unsafe-inline'\">"
                          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                          "<meta name=\"generator\" content=\"%1\">"
                          "<title>Audit report: %2</title><style>%3</style></head><body><main>")
               .arg(text(r.tool), text(r.title), reportStyle());
    header(out, r);
    files(out, r);
    summary(out, r);
    architecture(out, r);
    parameters(out, r);
    findings(out, r);
    layers(out, r);
    metadata(out, r);
    out += QStringLiteral(
               "<footer>Written by %1. This file is self-contained: it loads nothing from anywhere.</footer>"
               "</main></body></html>\n")
               .arg(text(r.tool));
    return out.toUtf8();
}

} // namespace ts
