#include "AxisPicker.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ts::ui {

AxisPicker::AxisPicker(QWidget* parent)
    : QWidget(parent), m_rows(new QComboBox(this)), m_cols(new QComboBox(this)), m_fixedLayout(new QHBoxLayout),
      m_fixedBox(new QWidget(this))
{
    // Two lines: the shown axes, then the fixed ones; one line overflows a half-width panel.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* axes = new QHBoxLayout;
    axes->addWidget(new QLabel(tr("Rows:"), this));
    axes->addWidget(m_rows);
    axes->addWidget(new QLabel(tr("Columns:"), this));
    axes->addWidget(m_cols);
    axes->addStretch(1);
    layout->addLayout(axes);
    m_fixedLayout->setContentsMargins(0, 0, 0, 0);
    m_fixedBox->setLayout(m_fixedLayout);
    layout->addWidget(m_fixedBox);
    m_rows->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_cols->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(m_rows, &QComboBox::currentIndexChanged, this, [this] {
        readControls();
        rebuild();
        emit changed();
    });
    connect(m_cols, &QComboBox::currentIndexChanged, this, [this] {
        readControls();
        rebuild();
        emit changed();
    });
}

void AxisPicker::setShape(const std::vector<std::uint64_t>& shape)
{
    m_shape = shape;
    m_spec = normalizedSpec(shape, PlaneSpec{static_cast<int>(shape.size()) - 2, static_cast<int>(shape.size()) - 1, {}});
    rebuild();
    setVisible(shape.size() > 2);
}

void AxisPicker::setSpec(const PlaneSpec& spec)
{
    m_spec = normalizedSpec(m_shape, spec);
    rebuild();
    emit changed();
}

void AxisPicker::readControls()
{
    PlaneSpec spec = m_spec;
    spec.rowAxis = m_rows->currentIndex();
    spec.colAxis = m_cols->currentIndex();
    for (std::size_t i = 0; i < m_fixed.size(); ++i) {
        if (m_fixed[i])
            spec.fixed[i] = static_cast<std::uint64_t>(m_fixed[i]->value());
    }
    m_spec = normalizedSpec(m_shape, spec);
}

void AxisPicker::rebuild()
{
    const QSignalBlocker blockRows(m_rows);
    const QSignalBlocker blockCols(m_cols);
    m_rows->clear();
    m_cols->clear();
    for (std::size_t i = 0; i < m_shape.size(); ++i) {
        const QString text = tr("axis %1 (%2)").arg(i).arg(m_shape[i]);
        m_rows->addItem(text);
        m_cols->addItem(text);
    }
    m_rows->setCurrentIndex(m_spec.rowAxis);
    m_cols->setCurrentIndex(m_spec.colAxis);
    while (QLayoutItem* item = m_fixedLayout->takeAt(0)) {
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    m_fixed.assign(m_shape.size(), nullptr);
    for (std::size_t i = 0; i < m_shape.size(); ++i) {
        const int axis = static_cast<int>(i);
        if (axis == m_spec.rowAxis || axis == m_spec.colAxis)
            continue;
        m_fixedLayout->addWidget(new QLabel(tr("index on axis %1:").arg(i), m_fixedBox));
        auto* box = new QSpinBox(m_fixedBox);
        box->setRange(0, static_cast<int>(std::min<std::uint64_t>(m_shape[i] == 0 ? 0 : m_shape[i] - 1, 1u << 30)));
        box->setValue(static_cast<int>(m_spec.fixed[i]));
        connect(box, &QSpinBox::valueChanged, this, [this] {
            readControls();
            emit changed();
        });
        m_fixedLayout->addWidget(box);
        m_fixed[i] = box;
    }
    m_fixedLayout->addStretch(1);
    m_fixedBox->setVisible(m_shape.size() > 2);
}

} // namespace ts::ui
