#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TerminalProgress.h"

#include "analysis/HistogramBuilder.h"
#include "analysis/ModelScanner.h"
#include "analysis/StatsJson.h"
#include "base/Format.h"
#include "base/JsonWriter.h"
#include "base/TerminalText.h"
#include "checkpoint/Checkpoint.h"

#include <algorithm>
#include <cmath>

namespace ts::cli {
namespace {

constexpr int kDefaultBins = 32;
// Histograms are kept for every requested tensor at once: bound bins x tensors, not only bins.
constexpr std::uint64_t kMaxHistogramCells = 64'000'000;

QString num(double x)
{
    return std::isnan(x) ? QStringLiteral("-") : QString::number(x, 'g', 7);
}

// Eight block heights per bin, the whole histogram on one line.
QString sparkline(const std::vector<std::uint64_t>& counts)
{
    static const char16_t kBlocks[] = u" ▁▂▃▄▅▆▇█";
    const std::uint64_t top = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
    QString line;
    for (std::uint64_t c : counts) {
        const int level = top == 0 ? 0 : c == 0 ? 0 : 1 + static_cast<int>((c * 7) / top);
        line += QChar(kBlocks[level]);
    }
    return line;
}

void printValueRows(QList<QStringList>& rows, const QString& prefix, const ValueStats& s)
{
    rows << QStringList{prefix + QStringLiteral("count"), formatGrouped(s.count)};
    rows << QStringList{prefix + QStringLiteral("NaN / +Inf / -Inf"),
                        QStringLiteral("%1 / %2 / %3")
                            .arg(formatGrouped(s.nan), formatGrouped(s.posinf), formatGrouped(s.neginf))};
    if (auto i = s.firstNan())
        rows << QStringList{prefix + QStringLiteral("first NaN at"), QString::number(*i)};
    if (auto i = s.firstInf())
        rows << QStringList{prefix + QStringLiteral("first Inf at"), QString::number(*i)};
    rows << QStringList{prefix + QStringLiteral("zeros / subnormals"),
                        QStringLiteral("%1 / %2").arg(formatGrouped(s.zeros), formatGrouped(s.subnormals))};
    rows << QStringList{prefix + QStringLiteral("min / max"),
                        QStringLiteral("%1 / %2").arg(num(s.min), num(s.max))};
    rows << QStringList{prefix + QStringLiteral("absmax"),
                        s.absmaxIndex ? QStringLiteral("%1 (at %2)").arg(num(s.absmax)).arg(*s.absmaxIndex)
                                      : num(s.absmax)};
    rows << QStringList{prefix + QStringLiteral("mean / std"),
                        QStringLiteral("%1 / %2").arg(num(s.mean), num(s.std))};
    rows << QStringList{prefix + QStringLiteral("L2 norm"), num(s.l2)};
    rows << QStringList{
        prefix + QStringLiteral("F16 overflow / underflow"),
        QStringLiteral("%1 / %2").arg(formatGrouped(s.f16Overflow), formatGrouped(s.f16Underflow))};
    rows << QStringList{prefix + QStringLiteral("BF16 underflow"), formatGrouped(s.bf16Underflow)};
    rows << QStringList{prefix + QStringLiteral("zero share"),
                        std::isnan(s.zeroShare())
                            ? QStringLiteral("-")
                            : QString::number(100 * s.zeroShare(), 'g', 4) + QLatin1Char('%')};
    if (s.quantiles) {
        const auto& q = s.quantiles->values;
        rows << QStringList{prefix + QStringLiteral("p1 / p5 / p25"),
                            QStringLiteral("%1 / %2 / %3").arg(num(q[0]), num(q[1]), num(q[2]))};
        rows << QStringList{prefix + QStringLiteral("median"), num(q[3])};
        rows << QStringList{prefix + QStringLiteral("p75 / p95 / p99"),
                            QStringLiteral("%1 / %2 / %3").arg(num(q[4]), num(q[5]), num(q[6]))};
    }
}

void printText(const Checkpoint& model, const ScanResult& result)
{
    for (std::size_t i = 0; i < result.tensors.size(); ++i) {
        const TensorStats& t = result.tensors[i];
        const TensorInfo& info = model.tensors()[static_cast<std::size_t>(model.indexOf(t.name))].info;
        out(QStringLiteral("%1  %2 %3").arg(terminalSafe(t.name), dtypeName(t.dtype), info.shapeString()));
        QList<QStringList> rows;
        printValueRows(rows, QStringLiteral("  "), t.values);
        if (t.dtype == Dtype::BOOL)
            rows << QStringList{QStringLiteral("  bytes not 0/1"), formatGrouped(t.nonBinaryBool)};
        if (t.real && t.imag) {
            printValueRows(rows, QStringLiteral("  real "), *t.real);
            printValueRows(rows, QStringLiteral("  imag "), *t.imag);
        }
        if (i < result.histograms.size() && result.histograms[i] && !result.histograms[i]->counts.empty()) {
            const Histogram& h = *result.histograms[i];
            rows << QStringList{QStringLiteral("  histogram"),
                                QStringLiteral("%1 |%2| %3").arg(num(h.lo), sparkline(h.counts), num(h.hi))};
            if (!h.logCounts.empty())
                rows << QStringList{
                    QStringLiteral("  log10|x|"),
                    QStringLiteral("%1 |%2| %3 (zeros: %4)")
                        .arg(num(h.logLo), sparkline(h.logCounts), num(h.logHi), formatGrouped(h.zeros))};
        }
        out(formatTable(rows));
    }
}

void printJson(const Checkpoint& model, const ScanResult& result)
{
    JsonWriter json;
    json.beginObject();
    json.key(QStringLiteral("file")).value(model.path());
    json.key(QStringLiteral("tensors")).beginArray();
    for (std::size_t i = 0; i < result.tensors.size(); ++i) {
        const TensorStats& t = result.tensors[i];
        const TensorInfo& info = model.tensors()[static_cast<std::size_t>(model.indexOf(t.name))].info;
        const Histogram* h =
            i < result.histograms.size() && result.histograms[i] ? &*result.histograms[i] : nullptr;
        writeTensorStatsJson(json, t, info.shape, h);
    }
    json.endArray();
    json.endObject();
    outRaw(json.data() + '\n');
}

} // namespace

int runStats(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("stats"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("stats"));
    QStringList positional = parser.positionalArguments();
    if (positional.isEmpty()) {
        err(usage);
        return ExitUsage;
    }
    ScanOptions options;
    options.histogramBins = kDefaultBins;
    options.quantiles = true; // free with the histograms' pass (none at all for 16 bits or fewer)
    if (parser.isSet(QStringLiteral("bins"))) {
        bool ok = false;
        options.histogramBins = parser.value(QStringLiteral("bins")).toInt(&ok);
        if (!ok || options.histogramBins < 1 || options.histogramBins > HistogramBuilder::kMaxBins) {
            err(QStringLiteral("tensorscope-cli: --bins takes a number from 1 to %1")
                    .arg(HistogramBuilder::kMaxBins));
            return ExitUsage;
        }
    }
    int status = ExitOk;
    const auto model = openForReading(positional.takeFirst(), !parser.isSet(QStringLiteral("json")), &status);
    if (!model)
        return status;
    for (const QString& name : positional) {
        const int index = model->indexOf(name);
        if (index < 0) {
            err(QStringLiteral("tensorscope-cli: %1 has no tensor named \"%2\"")
                    .arg(terminalSafe(model->path()), terminalSafe(name)));
            return ExitUsage;
        }
        options.tensors.push_back(index);
    }
    const std::uint64_t count = options.tensors.empty() ? model->tensors().size() : options.tensors.size();
    if (count * static_cast<std::uint64_t>(options.histogramBins) > kMaxHistogramCells) {
        err(QStringLiteral(
                "tensorscope-cli: %1 tensors x %2 bins is too many histogram cells (limit %3); name fewer "
                "tensors or use fewer bins")
                .arg(count)
                .arg(options.histogramBins)
                .arg(kMaxHistogramCells));
        return ExitUsage;
    }
    ModelScanner scanner(model, options);
    showScanProgress(scanner);
    auto result = scanner.run();
    clearScanProgress();
    if (!result) {
        err(result.error());
        return exitFor(result.error());
    }
    if (parser.isSet(QStringLiteral("json")))
        printJson(*model, *result);
    else
        printText(*model, *result);
    return ExitOk;
}

} // namespace ts::cli
