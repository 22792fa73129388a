#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"
#include "base/Error.h"
#include "checkpoint/Checkpoint.h"
#include "common/JobRunner.h"

#include <QHash>
#include <QObject>

#include <memory>
#include <optional>

namespace ts::ui {

// Statistics and histogram of one tensor, as the analysis engine computed them.
struct TensorStatsEntry {
    TensorStats stats;
    std::optional<Histogram> histogram;
    // Set when the tensor could not be read (stats.elements is then 0), or only its histogram
    // could not: the core's error, whose code tells the document to offer a reload (FileChanged).
    std::optional<Error> error;
};

// Computes statistics and histograms off the UI thread for the panels of the tensor view, one
// tensor at a time: asking for another tensor supersedes the running job in its JobRunner (its
// late result, a cancelled read, is dropped and never cached), and finished results are cached
// per (tensor, bins) so going back is instant.
class StatsJob final : public QObject {
    Q_OBJECT
public:
    explicit StatsJob(QObject* parent = nullptr);

    // Forgets the cache: a new or reloaded model.
    void setModel(std::shared_ptr<const Checkpoint> model);
    // Returns the cached entry at once, or starts a job and returns nullptr (ready() follows).
    std::shared_ptr<const TensorStatsEntry> request(int tensor, int bins);
    std::shared_ptr<const TensorStatsEntry> cached(int tensor, int bins) const;
    // Stops work nobody waits for (nothing is selected).
    void cancel();
    bool isRunning() const { return m_runner.isRunning(); }
    // The histogram's bin count, chosen in the histogram panel; the statistics do not depend on it.
    int bins() const { return m_bins; }
    void setBins(int bins) { m_bins = bins; }

signals:
    void started(int tensor);
    void ready(int tensor, int bins);
    // The tensor could not be read: for the document's reload banner (FileChanged).
    void readFailed(const ts::Error& error);

private:
    static quint64 key(int tensor, int bins) { return (quint64(quint32(tensor)) << 32) | quint32(bins); }

    std::shared_ptr<const Checkpoint> m_model;
    QHash<quint64, std::shared_ptr<const TensorStatsEntry>> m_cache;
    JobRunner m_runner{this};
    quint64 m_pendingKey = ~quint64(0);
    int m_bins = 64;
};

} // namespace ts::ui
