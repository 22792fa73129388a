#include "charts/LinePlotPanel.h"

#include "base/Format.h"
#include "charts/Plot.h"
#include "common/DisplayText.h"

#include "charts/QCustomPlotInclude.h"

#include <QLabel>
#include <QVBoxLayout>

#include <cmath>

namespace ts::ui {

LinePlotPanel::LinePlotPanel(QWidget* parent)
    : TensorPanel(parent), m_info(new QLabel(this)), m_plot(new Plot(this))
{
    m_info->setObjectName(QStringLiteral("lineInfo"));
    m_plot->setMinimumHeight(240);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->usePalette();
    m_plot->xAxis->setLabel(tr("index"));
    m_plot->yAxis->setLabel(tr("value"));
    const QColor blue(0x3b, 0x82, 0xf6);
    QCPGraph* upper = m_plot->addGraph();
    QCPGraph* lower = m_plot->addGraph();
    upper->setPen(QPen(blue, 1.2));
    lower->setPen(QPen(blue, 1.2));
    // The band between min and max is the envelope; a one-element bucket collapses to a line.
    upper->setBrush(QColor(0x3b, 0x82, 0xf6, 90));
    upper->setChannelFillGraph(lower);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot, 1);
    layout->addWidget(m_info);
}

void LinePlotPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    m_envelope = {};
    const bool vector =
        model && tensor >= 0 && model->tensors()[static_cast<std::size_t>(tensor)].info.shape.size() == 1;
    m_vector = vector;
    if (!vector) {
        m_job.cancel();
        draw();
        return;
    }
    m_info->setText(tr("Computing\u2026"));
    const TensorLocation location = model->location(tensor);
    const TensorInfo info = model->tensors()[static_cast<std::size_t>(tensor)].info;
    m_job.start(
        [location, info](const JobControl& control) {
            return buildEnvelope(location, info, kBuckets, control.cancel);
        },
        [this](Result<Envelope> r) {
            if (!r) {
                m_info->setText(toolTipText(r.error().toString()));
                emit readFailed(r.error());
                return;
            }
            m_envelope = std::move(r.value());
            draw();
            emit envelopeReady();
        });
}

void LinePlotPanel::draw()
{
    const Envelope& e = m_envelope;
    QVector<double> x, lo, hi;
    for (std::size_t i = 0; i < e.x.size(); ++i) {
        if (std::isnan(e.min[i]))
            continue; // a bucket of only NaN/Inf: a gap rather than a made-up value
        x << e.x[i];
        lo << e.min[i];
        hi << e.max[i];
    }
    m_plot->graph(0)->setData(x, hi, true);
    m_plot->graph(1)->setData(x, lo, true);
    m_plot->rescaleAxes();
    const QCPRange yr = m_plot->yAxis->range();
    const double pad = yr.size() > 0 ? yr.size() * 0.05 : 0.5;
    m_plot->yAxis->setRange(yr.lower - pad, yr.upper + pad);
    if (e.elements > 0) {
        QString text = e.x.size() < e.elements
                           ? tr("%1 values in %2 columns, each drawn from its min to its max.")
                                 .arg(formatGrouped(e.elements), formatGrouped(e.x.size()))
                       : e.elements == 1 ? tr("1 value.")
                                         : tr("%1 values.").arg(formatGrouped(e.elements));
        if (e.nonFinite > 0)
            text += tr(" %1 NaN/Inf not drawn.").arg(e.nonFinite);
        m_info->setText(text);
    } else {
        // Nothing to draw: an empty vector says so; anything else clears a "Computing…" left by a
        // tensor whose envelope was cancelled when the selection moved on.
        m_info->setText(m_vector ? tr("No values: this tensor has no elements.") : QString());
    }
    m_plot->refresh();
}

} // namespace ts::ui
