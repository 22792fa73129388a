#include "CheckpointOpening.h"
#include "CliOutput.h"
#include "CommandHelp.h"
#include "Commands.h"
#include "TerminalProgress.h"
#include "ThreadsOption.h"

#include "base/Format.h"
#include "base/TerminalText.h"
#include "diff/CheckpointDiff.h"
#include "diff/DiffJson.h"
#include "diff/FlatIndex.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ts::cli {
namespace {

using namespace ts::diff;

// Metadata values are cut where they are printed (a value may be a whole JSON config).
constexpr qsizetype kValueChars = 80;

QString num(double x)
{
    return std::isnan(x) ? QStringLiteral("-") : QString::number(x, 'g', 3);
}

QString cosineText(double c)
{
    if (std::isnan(c))
        return QStringLiteral("-");
    // Near 1 the digits that matter are the nines: 0.9999952, not 1.
    return QString::number(
        c, 'f', std::clamp(static_cast<int>(std::ceil(-std::log10(1 - std::fabs(c) + 1e-300))) + 2, 3, 12));
}

QString percentText(double share)
{
    const double p = 100 * share;
    if (p > 0 && p < 0.1)
        return QStringLiteral("%1%").arg(QString::number(p, 'g', 2));
    if (p < 100 && p > 99.9)
        return QStringLiteral("%1%").arg(QString::number(std::min(p, 99.99), 'f', 2));
    return QStringLiteral("%1%").arg(QString::number(p, 'f', 1));
}

// The verdict in a few words, for the table; the JSON and the window have the sentence.
QString kindLabel(const TensorPair& p)
{
    const ChangeVerdict& v = p.verdict;
    switch (v.kind) {
    case ChangeKind::Rounding: {
        const QString precision = precisionText(v.roundingBits);
        return QStringLiteral("rounding to ") + precision.left(precision.indexOf(QLatin1Char(' ')));
    }
    case ChangeKind::Scaled:
        return QStringLiteral("scaled x%1").arg(QString::number(v.scale, 'g', 5));
    case ChangeKind::Sparse:
        return QStringLiteral("sparse (%1)").arg(formatNoun(p.metrics->changed, "value", "values"));
    case ChangeKind::LowRank:
        return QStringLiteral("rank %1").arg(p.rank->rank);
    case ChangeKind::FullRank:
        return p.rank->lowerBound ? QStringLiteral("full rank (>= %1)").arg(p.rank->aboveNoise)
                                  : QStringLiteral("full rank (%1)").arg(p.rank->aboveNoise);
    default:
        return changeKindName(v.kind);
    }
}

QString bothOrOne(const QString& a, const QString& b)
{
    return a == b ? a : a + QStringLiteral(" -> ") + b;
}

void printChanged(const DiffReport& report, std::vector<const TensorPair*> changed)
{
    // The most changed first: what a reviewer reads before anything else.
    std::stable_sort(changed.begin(), changed.end(), [](const TensorPair* x, const TensorPair* y) {
        const double rx = x->metrics ? x->metrics->relativeL2() : -1;
        const double ry = y->metrics ? y->metrics->relativeL2() : -1;
        return rx > ry;
    });
    QList<QStringList> rows{{QStringLiteral("TENSOR"), QStringLiteral("DTYPE"), QStringLiteral("SHAPE"),
                             QStringLiteral("REL L2"), QStringLiteral("MAX |B-A|"), QStringLiteral("AT"),
                             QStringLiteral("COSINE"), QStringLiteral("CHANGED"), QStringLiteral("KIND")}};
    for (const TensorPair* p : changed) {
        const TensorInfo& a = report.infoA(*p);
        const TensorInfo& b = report.infoB(*p);
        QStringList row{bothOrOne(a.name, b.name), bothOrOne(dtypeName(a.dtype), dtypeName(b.dtype)),
                        bothOrOne(a.shapeString(), b.shapeString())};
        if (const ChangeMetrics* m = p->metrics ? &*p->metrics : nullptr) {
            row << num(m->relativeL2()) << num(m->maxAbsDiff)
                << (m->maxAbsIndex ? indexText(a.shape, *m->maxAbsIndex) : QStringLiteral("-"))
                << cosineText(m->cosine()) << percentText(m->fractionChanged());
        } else {
            row << QStringLiteral("-") << QStringLiteral("-") << QStringLiteral("-") << QStringLiteral("-")
                << QStringLiteral("-");
        }
        row << kindLabel(*p);
        rows << row;
    }
    out(formatTable(rows));
}

void printTensors(const QString& title, const Checkpoint& c, const std::vector<int>& tensors)
{
    if (tensors.empty())
        return;
    out(QString());
    out(QStringLiteral("%1 (%2):").arg(title).arg(tensors.size()));
    QList<QStringList> rows;
    for (int i : tensors) {
        const TensorInfo& t = c.tensors()[static_cast<std::size_t>(i)].info;
        rows << QStringList{QStringLiteral("  ") + t.name, dtypeName(t.dtype), t.shapeString()};
    }
    out(formatTable(rows));
}

void printText(const DiffReport& report, bool all)
{
    const auto side = [](const char* label, const Checkpoint& c) {
        out(QStringLiteral("%1  %2  (%3, %4)")
                .arg(QLatin1String(label), terminalSafe(c.path()),
                     formatNoun(c.tensors().size(), "tensor", "tensors"), formatBytes(c.totalTensorBytes())));
    };
    side("A", *report.a);
    side("B", *report.b);
    std::vector<const TensorPair*> changed, notCompared, identical, renamed;
    for (const TensorPair& p : report.pairs) {
        if (p.status == PairStatus::Changed)
            changed.push_back(&p);
        else if (p.status == PairStatus::NotCompared)
            notCompared.push_back(&p);
        else
            identical.push_back(&p);
        if (p.renamed())
            renamed.push_back(&p);
    }
    if (!changed.empty()) {
        out(QString());
        out(QStringLiteral("Changed (%1, most changed first):").arg(changed.size()));
        printChanged(report, changed);
    }
    if (all && !identical.empty()) {
        out(QString());
        out(QStringLiteral("Identical (%1):").arg(identical.size()));
        QList<QStringList> rows;
        for (const TensorPair* p : identical)
            rows << QStringList{QStringLiteral("  ") +
                                    bothOrOne(report.infoA(*p).name, report.infoB(*p).name),
                                dtypeName(report.infoA(*p).dtype), report.infoA(*p).shapeString()};
        out(formatTable(rows));
    }
    if (!renamed.empty()) {
        out(QString());
        out(QStringLiteral("Renamed (%1):").arg(renamed.size()));
        for (const TensorPair* p : renamed) {
            const char* how = p->by == PairedBy::Rule      ? "by a rename rule"
                              : p->by == PairedBy::Content ? "suggested: the same content"
                                                           : "suggested: the only tensors of this shape";
            out(QStringLiteral("  %1 -> %2  (%3)")
                    .arg(terminalSafe(report.infoA(*p).name), terminalSafe(report.infoB(*p).name),
                         QLatin1String(how)));
        }
    }
    if (!notCompared.empty()) {
        out(QString());
        out(QStringLiteral("Not compared (%1):").arg(notCompared.size()));
        for (const TensorPair* p : notCompared)
            out(QStringLiteral("  %1: %2").arg(terminalSafe(report.infoA(*p).name), terminalSafe(p->note)));
    }
    printTensors(QStringLiteral("Removed, only in A"), *report.a, report.removed);
    printTensors(QStringLiteral("Added, only in B"), *report.b, report.added);
    if (!report.metadata.empty()) {
        out(QString());
        out(QStringLiteral("Metadata (%1):").arg(report.metadata.size()));
        for (const MetadataChange& m : report.metadata) {
            const QString before = terminalSafe(elideText(m.before, kValueChars));
            const QString after = terminalSafe(elideText(m.after, kValueChars));
            const QString key = terminalSafe(m.key);
            if (m.kind == MetadataChange::Kind::Added)
                out(QStringLiteral("  + %1 = %2").arg(key, after));
            else if (m.kind == MetadataChange::Kind::Removed)
                out(QStringLiteral("  - %1 = %2").arg(key, before));
            else
                out(QStringLiteral("  ~ %1: %2 -> %3").arg(key, before, after));
        }
    }
    for (const QString& note : report.notes) {
        out(QString());
        out(QStringLiteral("Note: ") + terminalSafe(note));
    }

    const DiffReport::Counts c = report.counts();
    QStringList kinds;
    for (int k = 0; k < static_cast<int>(std::size(c.byKind)); ++k) {
        if (c.byKind[k] > 0)
            kinds << QStringLiteral("%1 %2").arg(c.byKind[k]).arg(changeKindName(static_cast<ChangeKind>(k)));
    }
    out(QString());
    out(QStringLiteral("%1: %2 identical, %3 changed%4, %5 not compared; %6 added, %7 removed; %8 changed.")
            .arg(formatNoun(report.pairs.size(), "pair", "pairs"))
            .arg(c.identical)
            .arg(c.changed)
            .arg(kinds.isEmpty() ? QString()
                                 : QStringLiteral(" (") + kinds.join(QStringLiteral(", ")) + QLatin1Char(')'))
            .arg(c.notCompared)
            .arg(c.added)
            .arg(c.removed)
            .arg(formatNoun(static_cast<std::uint64_t>(c.metadata), "metadata key", "metadata keys")));
    const double rate = report.seconds > 0 ? static_cast<double>(report.bytesRead) / report.seconds : 0;
    out(QStringLiteral("Read %1 in %2 s (%3/s). %4")
            .arg(formatBytes(report.bytesRead), QString::number(report.seconds, 'f', 2),
                 formatBytes(static_cast<std::uint64_t>(rate)),
                 report.identical() ? QStringLiteral("A and B are identical.")
                                    : QStringLiteral("A and B differ.")));
}

const char* phaseName(DiffPhase phase)
{
    switch (phase) {
    case DiffPhase::Identical:
        return "identical bytes";
    case DiffPhase::Values:
        return "values";
    case DiffPhase::Rank:
        return "rank";
    }
    return "";
}

} // namespace

int runDiff(const QStringList& args)
{
    QCommandLineParser parser;
    if (const auto answered = parseCommand(parser, QStringLiteral("diff"), args))
        return *answered;
    const QString usage = help::usageLine(QStringLiteral("diff"));
    if (parser.positionalArguments().size() != 2) {
        err(QStringLiteral("tensorscope-cli: diff compares two models: A and B"));
        err(usage);
        return ExitUsage;
    }
    DiffOptions options;
    for (const QString& rule : parser.values(QStringLiteral("rename"))) {
        if (Result<void> r = options.rename.addAssignment(rule); !r) {
            err(QStringLiteral("tensorscope-cli: --rename: ") + terminalSafe(r.error().message));
            return ExitUsage;
        }
    }
    for (const QString& file : parser.values(QStringLiteral("rename-file"))) {
        if (Result<void> r = options.rename.addFile(file); !r) {
            err(r.error());
            return ExitUsage;
        }
    }
    options.rank = parser.isSet(QStringLiteral("rank"));
    options.suggest = !parser.isSet(QStringLiteral("no-suggest"));
    if (const auto bad = readThreadsOption(parser, options.threads))
        return *bad;
    // Exit 1 means "they differ" here, so a file that cannot be read is 2 whatever its fault.
    int status = ExitOk;
    const auto a = openForReading(parser.positionalArguments()[0], true, &status);
    if (!a)
        return ExitUsage;
    const auto b = openForReading(parser.positionalArguments()[1], true, &status);
    if (!b)
        return ExitUsage;

    CheckpointDiff diff(a, b, options);
    const bool progress = stderrIsTerminal();
    if (progress) {
        diff.setProgressCallback(
            [](const DiffProgress& p) {
                const double share =
                    p.bytesTotal ? static_cast<double>(p.bytesDone) / static_cast<double>(p.bytesTotal) : 0;
                std::fprintf(stderr, "\r\x1b[Kcomparing %s: %3.0f%% of %s", phaseName(p.phase), 100 * share,
                             qPrintable(formatBytes(p.bytesTotal)));
                std::fflush(stderr);
            },
            200);
    }
    Result<DiffReport> report = diff.run();
    if (progress) {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
    }
    if (!report) {
        err(report.error());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("json")))
        outRaw(diffReportJson(*report));
    else
        printText(*report, parser.isSet(QStringLiteral("all")));
    for (const QString& note : report->notes) {
        if (parser.isSet(QStringLiteral("json")))
            err(QStringLiteral("tensorscope-cli: ") + terminalSafe(note));
    }
    return report->identical() ? ExitOk : ExitInvalid;
}

} // namespace ts::cli
