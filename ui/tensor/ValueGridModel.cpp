#include "tensor/ValueGridModel.h"

#include "analysis/TensorBlockReader.h"
#include "io/ReadScope.h"

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

void ValueGridModel::fetched(bool ok)
{
    // Bytes arrived: the views ask for their visible cells again.
    if (!ok)
        m_fetchFailed = true;
    m_stripRow = ~std::uint64_t(0);
    if (m_hasPlane && rowCount() > 0 && columnCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

ValueGridModel::Bytes ValueGridModel::readyOrFetch(std::uint64_t row, std::uint64_t col,
                                                   std::uint64_t n) const
{
    if (!m_location.source)
        return Bytes::Ready;
    // The byte ranges the strip's elements are in: one run when they are close together, one
    // per element down a column of a transposed plane (not the megabytes between them).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    const auto range = [&](std::uint64_t first, std::uint64_t last) {
        const std::uint64_t begin = m_location.offset + TensorBlockReader::bytesFor(m_dtype, first);
        ranges.emplace_back(begin,
                            m_location.offset + TensorBlockReader::bytesFor(m_dtype, last + 1) - begin);
    };
    const std::uint64_t first = m_plane.flat(row, col);
    const std::uint64_t last = m_plane.flat(row, col + n - 1);
    constexpr std::uint64_t kOneRun = 4u << 20;
    if (TensorBlockReader::bytesFor(m_dtype, std::max(first, last) - std::min(first, last) + 1) <= kOneRun) {
        range(std::min(first, last), std::max(first, last));
    } else {
        for (std::uint64_t i = 0; i < n; ++i)
            range(m_plane.flat(row, col + i), m_plane.flat(row, col + i));
    }
    bool ready = true;
    for (const auto& [offset, length] : ranges)
        ready = ready && m_location.source->readsWithoutWaiting(offset, length);
    if (ready)
        return Bytes::Ready;
    if (m_fetchFailed)
        return Bytes::Failed;
    if (!m_fetch.isRunning()) {
        // Another tensor (setTensor, clear) cancels this job: its wait for the server ends and
        // its late result is dropped by the runner.
        m_fetch.start(
            [source = m_location.source, ranges](const JobControl& control) {
                const ReadScope scope(control.cancel);
                for (const auto& [offset, length] : ranges) {
                    std::vector<std::byte> bytes(length);
                    if (!source->read(offset, bytes))
                        return false;
                }
                return true;
            },
            // data() is const; the delivery runs later, on the UI thread, outside it.
            [self = const_cast<ValueGridModel*>(this)](bool ok) { self->fetched(ok); });
    }
    return Bytes::Fetching;
}

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
    m_location = location;
    m_dtype = info.dtype;
    m_fetch.cancel();
    m_fetchFailed = false;
    m_reader.emplace(std::move(location), info.flattened()); // the reader needs no shape
    m_hasPlane = true;
    m_stripRow = ~std::uint64_t(0);
    endResetModel();
}

void ValueGridModel::clear()
{
    beginResetModel();
    m_reader.reset();
    m_location = {};
    m_fetch.cancel();
    m_fetchFailed = false;
    m_hasPlane = false;
    m_stripRow = ~std::uint64_t(0);
    endResetModel();
}

std::optional<double> ValueGridModel::value(int row, int col) const
{
    m_waiting = false;
    if (!m_hasPlane || row < 0 || col < 0)
        return std::nullopt;
    const auto r = static_cast<std::uint64_t>(row);
    const auto c = static_cast<std::uint64_t>(col);
    if (r >= m_plane.rows || c >= m_plane.cols)
        return std::nullopt;
    if (r != m_stripRow || c < m_stripCol || c >= m_stripCol + m_strip.size()) {
        const std::uint64_t stripCol = c / kStrip * kStrip;
        const std::uint64_t n = std::min<std::uint64_t>(kStrip, m_plane.cols - stripCol);
        const Bytes bytes = readyOrFetch(r, stripCol, n);
        m_waiting = bytes == Bytes::Fetching;
        if (bytes != Bytes::Ready)
            return std::nullopt;
        m_stripRow = r;
        m_stripCol = stripCol;
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
        return v ? format(*v) : m_waiting ? QStringLiteral("\u2026") : tr("unreadable");
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
        if (!v && m_waiting)
            return QColor(0x90, 0x90, 0x90);
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
