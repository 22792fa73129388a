#pragma once

#include "analysis/ModelScanner.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "report/AuditReport.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace ts {

class Checkpoint;

struct ReportOptions {
    bool hash = true; // SHA-256 of every file (reads them all)
    bool scan = true; // the whole-model scan (reads every tensor)
    int threads = 0;  // 0: one per core
    QString tool;     // "Tensorscope 0.1.0"
};

// What run() is doing; the bytes of each phase go to the control's sink, which restarts at 0
// (begin()) when the next phase starts.
enum class ReportPhase { Hashing, Scanning };

// Gathers an audit report: the model's description, its profile (architecture, Hub count,
// config check), the SHA-256 of its files and the whole-model scan's findings and per-layer
// statistics. run() blocks (the window runs it as a JobRunner job); the control's token stops the
// hashing and the scan within one chunk, and both report their bytes to its sink. Hashing first
// warms the page cache for the scan when the model fits in memory.
class ReportBuilder {
public:
    using PhaseListener = std::function<void(ReportPhase)>;

    ReportBuilder(std::shared_ptr<const Checkpoint> checkpoint, QString opened, ReportOptions options);
    ~ReportBuilder();
    ReportBuilder(const ReportBuilder&) = delete;
    ReportBuilder& operator=(const ReportBuilder&) = delete;

    // A profile computed already (the window has one from the load).
    void setProfile(ModelProfile profile) { m_profile = std::move(profile); }
    // A scan done already (the window's last one): its findings and statistics are used and the
    // model is not scanned again.
    void setScanResult(ScanResult result, bool nanInfOnly);
    void setControl(JobControl control) { m_control = std::move(control); }
    // Called on run()'s thread as each phase starts (the CLI's progress label).
    void setPhaseListener(PhaseListener listener) { m_phase = std::move(listener); }
    Result<AuditReport> run();

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
    JobControl m_control;
    PhaseListener m_phase;
};

} // namespace ts
