#include "compare/CompareJob.h"

#include <atomic>

namespace ts::ui {
namespace {

// The phase the worker is in, read by the progress handler on the UI thread: the job's sink
// carries bytes only, and each phase begin()s it afresh with that phase's total.
struct PhaseState {
    std::atomic<int> phase{static_cast<int>(diff::DiffPhase::Identical)};
};

} // namespace

CompareJob::CompareJob(QObject* parent) : QObject(parent), m_runner(this) {}

void CompareJob::start(const QString& a, const QString& b, diff::DiffOptions options)
{
    auto state = std::make_shared<PhaseState>();
    m_runner.start(
        [a, b, options = std::move(options),
         state](const JobControl& control) -> Result<std::shared_ptr<diff::DiffReport>> {
            Result<std::shared_ptr<const Checkpoint>> ca = Checkpoint::open(a);
            if (!ca)
                return ca.error();
            Result<std::shared_ptr<const Checkpoint>> cb = Checkpoint::open(b);
            if (!cb)
                return cb.error();
            diff::CheckpointDiff diff(*ca, *cb, options);
            diff.setCancelToken(control.cancel);
            // CheckpointDiff reports each phase's bytes done from 0; the sink wants additions.
            std::uint64_t seen = 0;
            int phase = -1;
            diff.setProgressCallback(
                [&](const diff::DiffProgress& p) {
                    if (static_cast<int>(p.phase) != phase) {
                        phase = static_cast<int>(p.phase);
                        state->phase.store(phase, std::memory_order_relaxed);
                        control.progress.begin(p.bytesTotal);
                        seen = 0;
                    }
                    if (p.bytesDone > seen) {
                        control.progress.add(p.bytesDone - seen);
                        seen = p.bytesDone;
                    }
                },
                50);
            Result<diff::DiffReport> report = diff.run();
            if (!report)
                return report.error();
            return std::make_shared<diff::DiffReport>(std::move(*report));
        },
        [this](Result<std::shared_ptr<diff::DiffReport>> result) {
            if (!result)
                emit failed(result.error());
            else
                emit finished(std::move(result.value()));
        },
        [this, state](const Progress& p) {
            diff::DiffProgress out;
            out.phase = static_cast<diff::DiffPhase>(state->phase.load(std::memory_order_relaxed));
            out.bytesDone = p.bytesDone;
            out.bytesTotal = p.bytesTotal;
            emit progress(out);
        });
}

} // namespace ts::ui
