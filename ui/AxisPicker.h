#pragma once

#include "view/TensorPlane.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QHBoxLayout;
class QSpinBox;

namespace ts::ui {

// Chooses the plane of an N-D tensor to show: a row axis, a column axis, and an index for every
// other axis. Hidden for tensors of rank 2 or less, where there is nothing to choose.
class AxisPicker final : public QWidget {
    Q_OBJECT
public:
    explicit AxisPicker(QWidget* parent = nullptr);

    void setShape(const std::vector<std::uint64_t>& shape);
    PlaneSpec spec() const { return m_spec; }
    void setSpec(const PlaneSpec& spec);

signals:
    void changed();

private:
    void rebuild();
    void readControls();

    std::vector<std::uint64_t> m_shape;
    PlaneSpec m_spec;
    QComboBox* m_rows;
    QComboBox* m_cols;
    QHBoxLayout* m_fixedLayout;
    std::vector<QSpinBox*> m_fixed; // one per axis; null for the shown axes
    QWidget* m_fixedBox;
};

} // namespace ts::ui
