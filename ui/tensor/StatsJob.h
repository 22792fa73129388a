#pragma once

#include "analysis/Histogram.h"
#include "analysis/TensorStats.h"
#include "base/CancelToken.h"
#include "checkpoint/Checkpoint.h"

#include <QHash>
#include <QObject>

#include <memory>
#include <optional>

namespace ts::ui {

// Statistics and histogram of one tensor, as the analysis engine computed them.
struct TensorStatsEntry {
    TensorStats stats;
    std::optional<Histogram> histogram;
    QString error; // set when the tensor could not be read
};

// Computes statistics and histograms off the UI thread for the panels of the tensor view, one
// tensor at a time: asking for another tensor cancels the running job (its late result is dropped
// by job id), and finished results are cached per (tensor, bins) so going back is instant.
class StatsJob final : public QObject {
    Q_OBJECT
public:
    explicit StatsJob(QObject* parent = nullptr);
    ~StatsJob() override;

    // Forgets the cache: a new or reloaded model.
    void setModel(std::shared_ptr<const Checkpoint> model);
    // Returns the cached entry at once, or starts a job and returns nullptr (ready() follows).
    std::shared_ptr<const TensorStatsEntry> request(int tensor, int bins);
    std::shared_ptr<const TensorStatsEntry> cached(int tensor, int bins) const;
    // Stops work nobody waits for (nothing is selected).
    void cancel();
    bool isRunning() const { return m_running; }
    // The histogram's bin count, chosen in the histogram panel; the statistics do not depend on it.
    int bins() const { return m_bins; }
    void setBins(int bins) { m_bins = bins; }

signals:
    void started(int tensor);
    void ready(int tensor, int bins);

private:
    static quint64 key(int tensor, int bins) { return (quint64(quint32(tensor)) << 32) | quint32(bins); }

    std::shared_ptr<const Checkpoint> m_model;
    QHash<quint64, std::shared_ptr<const TensorStatsEntry>> m_cache;
    CancelToken m_cancel;
    quint64 m_job = 0;
    quint64 m_pendingKey = ~quint64(0);
    bool m_running = false;
    int m_bins = 64;
};

} // namespace ts::ui
