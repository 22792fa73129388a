#include "tensor/AxisPicker.h"

#include "base/Format.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace ts::ui {

AxisPicker::AxisPicker(QWidget* parent)
    : QWidget(parent), m_rows(new QComboBox(this)), m_cols(new QComboBox(this)), m_note(new QLabel(this)),
      m_fixedLayout(new QHBoxLayout), m_fixedBox(new QWidget(this))
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
    layout->addWidget(m_note);
    m_note->hide();
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

void AxisPicker::setShape(std::shared_ptr<const Shape> shape)
{
    m_shape = shape ? std::move(shape) : std::make_shared<const Shape>();
    const int rank = static_cast<int>(dims().size());
    m_spec = normalizedSpec(dims(), PlaneSpec{rank - 2, rank - 1, {}});
    rebuild();
    setVisible(rank > 2);
}

void AxisPicker::setSpec(const PlaneSpec& spec)
{
    m_spec = normalizedSpec(dims(), spec);
    rebuild();
    emit changed();
}

void AxisPicker::readControls()
{
    PlaneSpec spec = m_spec;
    if (m_rows->currentIndex() >= 0)
        spec.rowAxis = m_rows->currentData().toInt();
    if (m_cols->currentIndex() >= 0)
        spec.colAxis = m_cols->currentData().toInt();
    for (const auto& [axis, box] : m_fixed) {
        if (spec.fixed.size() <= static_cast<std::size_t>(axis))
            spec.fixed.resize(static_cast<std::size_t>(axis) + 1, 0);
        spec.fixed[static_cast<std::size_t>(axis)] = static_cast<std::uint64_t>(box->value());
    }
    m_spec = normalizedSpec(dims(), spec);
}

std::vector<int> AxisPicker::listedAxes() const
{
    std::vector<int> axes;
    const bool all = dims().size() <= kShapeDimsShown;
    for (std::size_t i = 0; i < dims().size() && axes.size() < kShapeDimsShown; ++i) {
        const int axis = static_cast<int>(i);
        if (all || dims()[i] != 1 || axis == m_spec.rowAxis || axis == m_spec.colAxis)
            axes.push_back(axis);
    }
    // The shown axes are always listed, even past the limit.
    for (const int axis : {m_spec.rowAxis, m_spec.colAxis}) {
        if (axis >= 0 && std::find(axes.begin(), axes.end(), axis) == axes.end())
            axes.insert(std::upper_bound(axes.begin(), axes.end(), axis), axis);
    }
    return axes;
}

void AxisPicker::rebuild()
{
    const QSignalBlocker blockRows(m_rows);
    const QSignalBlocker blockCols(m_cols);
    m_rows->clear();
    m_cols->clear();
    const std::vector<int> axes = listedAxes();
    for (const int axis : axes) {
        const QString text = tr("axis %1 (%2)").arg(axis).arg(dims()[static_cast<std::size_t>(axis)]);
        m_rows->addItem(text, axis);
        m_cols->addItem(text, axis);
    }
    m_rows->setCurrentIndex(m_rows->findData(m_spec.rowAxis));
    m_cols->setCurrentIndex(m_cols->findData(m_spec.colAxis));
    const bool elided = axes.size() < dims().size();
    m_note->setText(elided ? tr("Rank %1: axes of length 1 are not listed.").arg(formatGrouped(dims().size()))
                           : QString());
    m_note->setVisible(elided);
    while (QLayoutItem* item = m_fixedLayout->takeAt(0)) {
        if (item->widget())
            item->widget()->deleteLater();
        delete item;
    }
    m_fixed.clear();
    for (const int axis : axes) {
        if (axis == m_spec.rowAxis || axis == m_spec.colAxis)
            continue;
        const auto i = static_cast<std::size_t>(axis);
        m_fixedLayout->addWidget(new QLabel(tr("index on axis %1:").arg(axis), m_fixedBox));
        auto* box = new QSpinBox(m_fixedBox);
        box->setRange(
            0, static_cast<int>(std::min<std::uint64_t>(dims()[i] == 0 ? 0 : dims()[i] - 1, 1u << 30)));
        box->setValue(static_cast<int>(i < m_spec.fixed.size() ? m_spec.fixed[i] : 0));
        connect(box, &QSpinBox::valueChanged, this, [this] {
            readControls();
            emit changed();
        });
        m_fixedLayout->addWidget(box);
        m_fixed.emplace_back(axis, box);
    }
    m_fixedLayout->addStretch(1);
    m_fixedBox->setVisible(dims().size() > 2);
}

} // namespace ts::ui
