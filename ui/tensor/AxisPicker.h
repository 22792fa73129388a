#pragma once

#include "format/Shape.h"
#include "view/TensorPlane.h"

#include <QWidget>

#include <memory>
#include <utility>
#include <vector>

class QComboBox;
class QHBoxLayout;
class QLabel;
class QSpinBox;

namespace ts::ui {

// Chooses the plane of an N-D tensor to show: a row axis, a column axis, and an index for every
// other axis. Hidden for tensors of rank 2 or less, where there is nothing to choose. Past
// kShapeDimsShown dimensions only axes longer than 1 get controls (at most that many): a valid
// shape can have 49 M dimensions of 1, and each control is a widget.
class AxisPicker final : public QWidget {
    Q_OBJECT
public:
    explicit AxisPicker(QWidget* parent = nullptr);

    // Shared, not copied: a shape of rank 49 M is 392 MB.
    void setShape(std::shared_ptr<const Shape> shape);
    PlaneSpec spec() const { return m_spec; }
    void setSpec(const PlaneSpec& spec);

signals:
    void changed();

private:
    void rebuild();
    void readControls();
    std::vector<int> listedAxes() const;

    const Shape& dims() const { return *m_shape; }

    std::shared_ptr<const Shape> m_shape = std::make_shared<const Shape>();
    PlaneSpec m_spec;
    QComboBox* m_rows;
    QComboBox* m_cols;
    QLabel* m_note;
    QHBoxLayout* m_fixedLayout;
    std::vector<std::pair<int, QSpinBox*>> m_fixed; // axis and its control, for the listed fixed axes
    QWidget* m_fixedBox;
};

} // namespace ts::ui
