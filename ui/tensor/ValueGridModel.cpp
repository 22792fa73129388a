#include "tensor/ValueGridModel.h"

#include <QColor>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ts::ui {
namespace {

// A view cannot show more rows than an int holds; such a plane is cut (and the heatmap is the
// way to see it whole).
int clampCount(std::uint64_t n)
{
    return static_cast<int>(
        std::min<std::uint64_t>(n, static_cast<std::uint64_t>(std::numeric_limits<int>::max())));
}

} // namespace

ValueGridModel::ValueGridModel(QObject* parent) : QAbstractTableModel(parent) {}

void ValueGridModel::setTensor(TensorLocation location, const TensorInfo& info, PlaneSpec spec)
{
    beginResetModel();
    m_plane = makePlane(info.shape, spec);
    if (info.shape.size() <= 1) {
        // A vector reads down a column, one value per line, like any list of numbers.
        std::swap(m_plane.rows, m_plane.cols);
        m_plane.rowStride = m_plane.colStride;
        m_plane.colStride = 1;
    }
    m_reader.emplace(std::move(location), info.flattened()); // the reader needs no shape
    m_hasPlane = true;
    m_stripRow = ~std::uint64_t(0);
    endResetModel();
}

void ValueGridModel::clear()
{
    beginResetModel();
    m_reader.reset();
    m_hasPlane = false;
    m_stripRow = ~std::uint64_t(0);
    endResetModel();
}

std::optional<double> ValueGridModel::value(int row, int col) const
{
    if (!m_hasPlane || row < 0 || col < 0)
        return std::nullopt;
    const auto r = static_cast<std::uint64_t>(row);
    const auto c = static_cast<std::uint64_t>(col);
    if (r >= m_plane.rows || c >= m_plane.cols)
        return std::nullopt;
    if (r != m_stripRow || c < m_stripCol || c >= m_stripCol + m_strip.size()) {
        m_stripRow = r;
        m_stripCol = c / kStrip * kStrip;
        const std::uint64_t n = std::min<std::uint64_t>(kStrip, m_plane.cols - m_stripCol);
        m_strip.assign(n, std::numeric_limits<double>::quiet_NaN());
        m_stripOk = true;
        if (m_plane.colStride == 1) {
            Result<std::vector<double>> values = m_reader->read(m_plane.flat(r, m_stripCol), n);
            m_stripOk = values.ok();
            if (values)
                m_strip = std::move(values.value());
        } else {
            for (std::uint64_t i = 0; i < n && m_stripOk; ++i) {
                Result<double> v = m_reader->at(m_plane.flat(r, m_stripCol + i));
                m_stripOk = v.ok();
                if (v)
                    m_strip[i] = v.value();
            }
        }
    }
    if (!m_stripOk)
        return std::nullopt;
    return m_strip[c - m_stripCol];
}

QString ValueGridModel::format(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("+Inf") : QStringLiteral("\u2212Inf");
    // Integers of every integer dtype print whole; floats with the digits an F32 carries.
    if (value == std::floor(value) && std::abs(value) < 1e15)
        return QString::number(value, 'f', 0);
    return QString::number(value, 'g', 7);
}

int ValueGridModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_hasPlane ? 0 : clampCount(m_plane.rows);
}

int ValueGridModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_hasPlane ? 0 : clampCount(m_plane.cols);
}

QVariant ValueGridModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    switch (role) {
    case Qt::DisplayRole: {
        const std::optional<double> v = value(index.row(), index.column());
        return v ? format(*v) : tr("unreadable");
    }
    case ValueRole: {
        const std::optional<double> v = value(index.row(), index.column());
        return v ? QVariant(*v) : QVariant();
    }
    case FlatIndexRole:
        return QVariant::fromValue<qulonglong>(m_plane.flat(static_cast<std::uint64_t>(index.row()),
                                                            static_cast<std::uint64_t>(index.column())));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole: {
        const std::optional<double> v = value(index.row(), index.column());
        if (!v || !std::isfinite(*v))
            return QColor(0xd0, 0x30, 0x30);
        return {};
    }
    default:
        return {};
    }
}

QVariant ValueGridModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    (void)orientation;
    return QString::number(section);
}

} // namespace ts::ui
