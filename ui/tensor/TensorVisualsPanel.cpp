#include "tensor/TensorVisualsPanel.h"

#include "charts/HeatmapPanel.h"
#include "charts/HistogramPanel.h"
#include "charts/LinePlotPanel.h"
#include "tensor/AnomalyNavigator.h"
#include "tensor/ValueGridPanel.h"

#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ts::ui {

TensorVisualsPanel::TensorVisualsPanel(StatsJob* job, QWidget* parent)
    : TensorPanel(parent), m_anomalies(new AnomalyNavigator(job, this)),
      m_histogram(new HistogramPanel(job, this)), m_heatmap(new HeatmapPanel(this)),
      m_grid(new ValueGridPanel(this)), m_line(new LinePlotPanel(this)), m_tabs(new QTabWidget(this))
{
    m_tabs->addTab(m_heatmap, tr("Heatmap"));
    m_tabs->addTab(m_line, tr("Line"));
    m_tabs->addTab(m_grid, tr("Values"));
    m_tabs->setDocumentMode(true);
    // Side by side: the distribution and the layout of a matrix are read together.
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(QStringLiteral("visualsSplitter")); // its key in WindowMemory: keep it stable
    splitter->addWidget(m_histogram);
    splitter->addWidget(m_tabs);
    splitter->setChildrenCollapsible(false);
    // The picture of the tensor gets the larger share: it is where an anomaly is seen.
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({1000, 2000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_anomalies);
    layout->addWidget(splitter, 1); // the bar keeps its height; the plots take the rest
    setMinimumHeight(300);
    // A click on the heatmap opens the values there.
    connect(m_heatmap, &HeatmapPanel::cellActivated, this,
            [this](const PlaneSpec& spec, std::uint64_t row, std::uint64_t col) {
                m_tabs->setCurrentWidget(m_grid);
                m_grid->goToCell(spec, row, col);
            });
    connect(m_tabs, &QTabWidget::tabBarClicked, this,
            [this](int index) { m_preferValues = m_tabs->widget(index) == m_grid; });
    // The histogram's reads are the StatsJob's, which reports its own failures.
    connect(m_heatmap, &TensorPanel::readFailed, this, &TensorPanel::readFailed);
    connect(m_line, &TensorPanel::readFailed, this, &TensorPanel::readFailed);
    connect(m_anomalies, &TensorPanel::readFailed, this, &TensorPanel::readFailed);
    connect(m_anomalies, &AnomalyNavigator::elementChosen, this, &TensorVisualsPanel::goToAnomaly);
}

void TensorVisualsPanel::goToAnomaly(std::uint64_t flat)
{
    // Both pictures that can show one element follow, whichever is in front; the line plot cannot
    // point at one, so the values come forward instead.
    if (m_tabs->currentWidget() != m_heatmap && m_tabs->currentWidget() != m_grid)
        m_tabs->setCurrentWidget(m_grid);
    m_grid->goToElement(flat);
    m_heatmap->focusElement(flat);
}

void TensorVisualsPanel::showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor)
{
    const int t = model ? tensor : -1;
    setVisible(t >= 0);
    const std::size_t rank = t >= 0 ? model->tensors()[static_cast<std::size_t>(t)].info.shape.size() : 0;
    m_tabs->setTabVisible(m_tabs->indexOf(m_heatmap), rank >= 1); // a vector is a strip
    m_tabs->setTabVisible(m_tabs->indexOf(m_line), rank == 1);
    // The picture of the tensor first; the values only when the user chose them (or for scalars).
    if (rank >= 2 && !(m_preferValues && m_tabs->currentWidget() == m_grid))
        m_tabs->setCurrentWidget(m_heatmap);
    if (rank == 1 && !(m_preferValues && m_tabs->currentWidget() == m_grid))
        m_tabs->setCurrentWidget(m_line);
    if (rank == 0 && t >= 0)
        m_tabs->setCurrentWidget(m_grid);
    for (TensorPanel* panel : {static_cast<TensorPanel*>(m_histogram), static_cast<TensorPanel*>(m_heatmap),
                               static_cast<TensorPanel*>(m_grid), static_cast<TensorPanel*>(m_line),
                               static_cast<TensorPanel*>(m_anomalies)})
        panel->showTensor(model, t);
}

bool TensorVisualsPanel::showElement(std::uint64_t flat)
{
    m_tabs->setCurrentWidget(m_grid);
    m_anomalies->continueFrom(flat); // F3 then goes on from the finding's element
    return m_grid->goToElement(flat);
}

} // namespace ts::ui
