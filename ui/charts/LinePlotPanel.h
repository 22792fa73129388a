#pragma once

#include "charts/Plot.h"
#include "common/JobRunner.h"
#include "tensor/TensorPanel.h"
#include "view/Envelope.h"

#include <memory>

class QLabel;

namespace ts::ui {

// A 1-D tensor as a line: at most kBuckets columns, each drawn from its minimum to its maximum,
// so a single spike among a million values keeps its full height.
class LinePlotPanel final : public TensorPanel {
    Q_OBJECT
public:
    static constexpr int kBuckets = 1000;

    explicit LinePlotPanel(QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    const Envelope& envelope() const { return m_envelope; }
    bool isComputing() const { return m_job.isRunning(); }

signals:
    void envelopeReady();

private:
    void draw();

    JobRunner m_job{this};
    Envelope m_envelope;
    bool m_vector = false; // the tensor shown is 1-D
    QLabel* m_info;
    Plot* m_plot;
};

} // namespace ts::ui
