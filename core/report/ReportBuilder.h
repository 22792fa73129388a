#pragma once

#include "analysis/ModelScanner.h"
#include "base/Result.h"
#include "report/AuditReport.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace ts {

class Checkpoint;
class FileHasher;

struct ReportOptions {
    bool hash = true; // SHA-256 of every file (reads them all)
    bool scan = true; // the whole-model scan (reads every tensor)
    int threads = 0;  // 0: one per core
    QString tool;     // "Tensorscope 0.1.0"
};

struct ReportProgress {
    QString phase; // "Hashing files", "Scanning tensors"
    std::uint64_t done = 0;
    std::uint64_t total = 0; // of this phase
    double bytesPerSecond = 0;
};

// Gathers an audit report: the model's description, its profile (architecture, Hub count,
// config check), the SHA-256 of its files and the whole-model scan's findings and per-layer
// statistics. run() blocks (call it from a worker thread in the GUI); cancel() and the progress
// callback are thread-safe, progress arrives on run()'s thread. Hashing first warms the page
// cache for the scan when the model fits in memory.
class ReportBuilder {
public:
    using ProgressCallback = std::function<void(const ReportProgress&)>;

    ReportBuilder(std::shared_ptr<const Checkpoint> checkpoint, QString opened, ReportOptions options);
    ~ReportBuilder();
    ReportBuilder(const ReportBuilder&) = delete;
    ReportBuilder& operator=(const ReportBuilder&) = delete;

    // A profile computed already (the window has one from the load).
    void setProfile(ModelProfile profile) { m_profile = std::move(profile); }
    // A scan done already (the window's last one): its findings and statistics are used and the
    // model is not scanned again.
    void setScanResult(ScanResult result, bool nanInfOnly);
    void setProgressCallback(ProgressCallback callback) { m_progress = std::move(callback); }
    Result<AuditReport> run();
    void cancel();

    // The parts of a report that read no tensor data.
    static AuditReport describe(const Checkpoint& checkpoint, const QString& opened,
                                const ModelProfile& profile);
    // The per-layer series of a full scan's statistics (`stats[i]` of `checkpoint.tensors()[i]`),
    // families with a flagged block first, at most kMaxLayerCharts of them.
    static std::vector<LayerSeries> layerSeries(const Checkpoint& checkpoint,
                                                const std::vector<TensorStats>& stats,
                                                const std::vector<Diagnostic>& findings,
                                                std::uint64_t* families = nullptr);

private:
    std::shared_ptr<const Checkpoint> m_checkpoint;
    QString m_opened;
    ReportOptions m_options;
    std::optional<ModelProfile> m_profile;
    std::optional<ScanResult> m_scan;
    bool m_scanNanInfOnly = false;
    ProgressCallback m_progress;
    std::atomic<bool> m_cancelled{false};
    std::mutex m_mutex; // guards the running hasher and scanner below
    FileHasher* m_hasher = nullptr;
    ModelScanner* m_scanner = nullptr;
};

} // namespace ts
