#pragma once

#include "charts/Plot.h"
#include "checkpoint/NameTree.h"

#include <QWidget>

#include <vector>

namespace ts::ui {

// Parameters (left axis) and bytes (right axis) per dtype as grouped bars. Colours follow the
// palette so the chart reads in light and dark themes.
class DtypeChart final : public QWidget {
    Q_OBJECT
public:
    explicit DtypeChart(QWidget* parent = nullptr);

    void setTotals(const std::vector<DtypeTotals>& totals);
    QCustomPlot* plot() const { return m_plot; }
    int barCount() const { return static_cast<int>(m_totals.size()); }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();

    Plot* m_plot;
    std::vector<DtypeTotals> m_totals;
};

} // namespace ts::ui
