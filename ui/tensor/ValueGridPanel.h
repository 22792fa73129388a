#pragma once

#include "tensor/TensorPanel.h"
#include "view/TensorPlane.h"

class QLineEdit;
class QLabel;
class QTableView;

namespace ts::ui {

class AxisPicker;
class ValueGridModel;

// The raw values of the selected tensor in a lazy table: N-D slicing as in the heatmap, go to an
// index ("12, 40"), copy the selection as tab-separated text.
class ValueGridPanel final : public TensorPanel {
    Q_OBJECT
public:
    explicit ValueGridPanel(QWidget* parent = nullptr);

    void showTensor(const std::shared_ptr<const Checkpoint>& model, int tensor) override;
    ValueGridModel* gridModel() const { return m_model; }
    QTableView* view() const { return m_view; }
    // "row, col" or a single column for 1-D; false when out of range or unparsable.
    bool goTo(const QString& text);
    // The element at (row, col) of the plane `spec` chooses (a heatmap's click): the grid shows that
    // plane and selects it.
    bool goToCell(const PlaneSpec& spec, std::uint64_t row, std::uint64_t col);
    QString selectionText() const;
    void copySelection() const;

private:
    void reset();

    std::shared_ptr<const Checkpoint> m_modelData;
    int m_tensor = -1;
    AxisPicker* m_axes;
    QLineEdit* m_goTo;
    QLabel* m_info;
    ValueGridModel* m_model;
    QTableView* m_view;
};

} // namespace ts::ui
