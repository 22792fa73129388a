#include "report/ReportBuilder.h"

#include "base/Format.h"
#include "base/NaturalOrder.h"
#include "checkpoint/Checkpoint.h"
#include "report/FileHasher.h"
#include "report/Sha256.h"
#include "view/LayerGroups.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <map>

namespace ts {
namespace {

QString kindOf(const Checkpoint& c)
{
    switch (c.kind()) {
    case Checkpoint::Kind::SingleFile:
        return QStringLiteral("single file");
    case Checkpoint::Kind::IndexedShards:
        return QStringLiteral("%1 shards behind an index").arg(c.parts().size());
    case Checkpoint::Kind::FolderOfShards:
        return QStringLiteral("%1 shards in a folder").arg(c.parts().size());
    }
    return {};
}

} // namespace

ReportBuilder::ReportBuilder(std::shared_ptr<const Checkpoint> checkpoint, QString opened,
                             ReportOptions options)
    : m_checkpoint(std::move(checkpoint)), m_opened(std::move(opened)), m_options(std::move(options))
{
}

ReportBuilder::~ReportBuilder() = default;

void ReportBuilder::setScanResult(ScanResult result, bool nanInfOnly)
{
    m_scan = std::move(result);
    m_scanNanInfOnly = nanInfOnly;
}

AuditReport ReportBuilder::describe(const Checkpoint& checkpoint, const QString& opened,
                                    const ModelProfile& profile)
{
    AuditReport r;
    r.title = checkpoint.displayName();
    r.opened = opened;
    r.generatedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    r.formatName = checkpoint.formatName();
    r.kind = kindOf(checkpoint);
    r.tensorCount = checkpoint.tensors().size();
    r.elements = checkpoint.totalParameters();
    r.tensorBytes = checkpoint.totalTensorBytes();
    r.fileBytes = checkpoint.totalFileBytes();
    r.headerBytes = checkpoint.headerBytes();
    std::map<Dtype, DtypeLine> dtypes;
    for (const CheckpointTensor& t : checkpoint.tensors()) {
        DtypeLine& line = dtypes[t.info.dtype];
        line.dtype = t.info.dtype;
        ++line.tensors;
        line.elements += t.info.elementCount();
        line.bytes += t.info.byteSize();
    }
    for (const auto& [dtype, line] : dtypes)
        r.dtypes.push_back(line);
    r.profile = profile;
    r.validation = checkpoint.warnings();
    r.metadata = checkpoint.metadata();
    // Sizes even when the files are not hashed.
    for (const CheckpointPart& part : checkpoint.parts())
        r.files.push_back({part.name, part.localPath, QStringLiteral("weights"), part.size(), QString()});
    return r;
}

std::vector<LayerSeries> ReportBuilder::layerSeries(const Checkpoint& checkpoint,
                                                    const std::vector<TensorStats>& stats,
                                                    const std::vector<Diagnostic>& findings,
                                                    std::uint64_t* familiesFound)
{
    std::vector<LayerSeries> series;
    if (stats.size() != checkpoint.tensors().size())
        return series;
    std::vector<QString> names;
    names.reserve(checkpoint.tensors().size());
    for (const CheckpointTensor& t : checkpoint.tensors())
        names.push_back(t.info.name);
    QHash<QString, int> flagged;
    for (const Diagnostic& d : findings) {
        if (d.code == QLatin1String("LayerOutlier") && !d.tensor.isEmpty())
            flagged.insert(d.tensor, 1);
    }
    const std::vector<LayerFamily> families = layerFamilies(names);
    if (familiesFound)
        *familiesFound = families.size();
    for (const LayerFamily& family : families) {
        if (family.members.size() < 3)
            continue;
        LayerSeries s;
        s.pattern = family.pattern;
        for (const LayerMember& m : family.members) {
            const TensorStats& t = stats[static_cast<std::size_t>(m.tensor)];
            s.blocks.push_back(m.block);
            const bool finite = t.values.finite > 0 && !t.nanInfOnly;
            s.std.push_back(finite ? t.values.std : std::nan(""));
            s.absmax.push_back(finite ? t.values.absmax : std::nan(""));
            if (flagged.contains(names[static_cast<std::size_t>(m.tensor)]))
                s.flagged.push_back(m.block);
        }
        series.push_back(std::move(s));
    }
    // The families with a flagged block first: they are what the charts are for.
    std::stable_sort(series.begin(), series.end(), [](const LayerSeries& a, const LayerSeries& b) {
        if (a.flagged.empty() != b.flagged.empty())
            return !a.flagged.empty();
        return naturalLess(a.pattern, b.pattern);
    });
    if (series.size() > kMaxLayerCharts)
        series.resize(kMaxLayerCharts);
    return series;
}

Result<AuditReport> ReportBuilder::run()
{
    const Checkpoint& checkpoint = *m_checkpoint;
    if (!m_profile)
        m_profile = ModelProfiler::profile(checkpoint, m_opened);
    AuditReport report = describe(checkpoint, m_opened, *m_profile);
    report.tool = m_options.tool;

    // Files: the weights, their index and the config.json the profile read.
    QStringList extra;
    if (m_profile->config.found())
        extra << m_profile->config.path;
    auto inputs = FileHasher::inputsOf(checkpoint, extra);
    if (!inputs)
        return inputs.error();
    if (m_options.hash) {
        if (m_phase)
            m_phase(ReportPhase::Hashing);
        FileHasher hasher(std::move(inputs.value()), m_options.threads);
        hasher.setControl(m_control);
        QElapsedTimer timer;
        timer.start();
        auto digests = hasher.run();
        if (!digests)
            return digests.error();
        report.files = std::move(digests.value());
        report.hashed = true;
        report.hashBackend = Sha256::backend();
        const double seconds = static_cast<double>(timer.elapsed()) / 1000.0;
        std::uint64_t bytes = 0;
        for (const FileDigest& d : report.files)
            bytes += d.size;
        report.hashNote = QStringLiteral("%1 hashed in %2 s (%3/s, %4)")
                              .arg(formatBytes(bytes), QString::number(seconds, 'f', 2),
                                   formatBytes(static_cast<std::uint64_t>(
                                       seconds > 0 ? static_cast<double>(bytes) / seconds : 0)),
                                   report.hashBackend);
    } else {
        report.files.clear();
        for (const HashInput& in : inputs.value())
            report.files.push_back({in.name, in.path, in.role, in.source->size(), QString()});
        report.hashNote = QStringLiteral("not hashed (asked for without hashes)");
    }

    if (m_scan) {
        report.scanned = true;
        report.scanNanInfOnly = m_scanNanInfOnly;
    } else if (m_options.scan) {
        ScanOptions options;
        options.threads = m_options.threads;
        if (m_phase)
            m_phase(ReportPhase::Scanning);
        ModelScanner scanner(m_checkpoint, options);
        scanner.setControl(m_control);
        auto result = scanner.run();
        if (!result)
            return result.error();
        m_scan = std::move(result.value());
        report.scanned = true;
    }
    if (m_scan) {
        report.scanFindings = m_scan->findings;
        report.scanNote =
            QStringLiteral("%1 %2 (%3) in %4 s")
                .arg(report.scanNanInfOnly ? QStringLiteral("NaN/Inf check of") : QStringLiteral("Scanned"),
                     formatNoun(m_scan->tensors.size(), "tensor", "tensors"), formatBytes(m_scan->bytes),
                     QString::number(m_scan->seconds, 'f', 2));
        if (!report.scanNanInfOnly)
            report.layers = layerSeries(checkpoint, m_scan->tensors, m_scan->findings, &report.layerFamilies);
    } else {
        report.scanNote = QStringLiteral("The tensors' values were not read (asked for without a scan): "
                                         "nothing here says whether they hold NaN, Inf or outliers.");
    }
    if (m_control.cancel.isCancelled())
        return makeError(ErrorCode::Cancelled, checkpoint.path(), QStringLiteral("the report was cancelled"));
    return report;
}

} // namespace ts
