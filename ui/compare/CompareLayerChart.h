#pragma once

#include "charts/Plot.h"
#include "diff/DiffReport.h"
#include "view/LayerGroups.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;

namespace ts::ui {

// Relative change ||B - A|| / ||A|| against block index, on a log scale, so the layers a
// fine-tune or a merge changed most stand out. The first choices show, for each repeated block
// ("model.layers.#"), the largest change among a block's tensors; then each family of same-named
// tensors ("model.layers.#.self_attn.q_proj.weight") on its own. Unchanged blocks are listed
// under the chart (a log scale has no zero). Clicking a point selects its tensor.
class CompareLayerChart final : public QWidget {
    Q_OBJECT
public:
    explicit CompareLayerChart(QWidget* parent = nullptr);

    void setReport(const diff::DiffReport& report);
    void clear();
    int seriesCount() const;
    void setSeries(int index);
    int pointCount() const;
    QString currentSeries() const;
    // The pair behind point `i` of the current series.
    int pairAt(int point) const;
    Plot* plot() const { return m_plot; }

signals:
    void pairActivated(int pair);

private:
    struct Point {
        int block = 0;
        double change = 0;
        int pair = -1;
    };
    struct Series {
        QString label;
        std::vector<Point> points;
    };
    void replot();

    std::vector<Series> m_series;
    std::vector<Point> m_shown; // the current series' points with a change, as drawn
    QComboBox* m_choice;
    QLabel* m_note;
    Plot* m_plot;
};

} // namespace ts::ui
