#pragma once

#include "common/JobRunner.h"
#include "view/ElementReader.h"
#include "view/TensorPlane.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace ts::ui {

// A lazy table over one plane of a tensor: nothing is decoded until a view asks for a cell, and
// then only the row strip around it (views ask for visible cells only). Any dtype.
class ValueGridModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Roles { ValueRole = Qt::UserRole, FlatIndexRole };

    explicit ValueGridModel(QObject* parent = nullptr);

    void setTensor(TensorLocation location, const TensorInfo& info, PlaneSpec spec);
    void clear();
    const TensorPlane& plane() const { return m_plane; }
    // The decoded value of a cell, or nullopt when its bytes cannot be read (or, for a model on a
    // server, have not arrived yet: isFetching() says which).
    std::optional<double> value(int row, int col) const;
    // True while bytes of the grid are on their way from a server. The UI thread never waits for
    // a network: a strip whose bytes are not here is fetched on a worker and shown as "…" until
    // they are (ByteSource::readsWithoutWaiting).
    bool isFetching() const { return m_fetch.isRunning(); }
    static QString format(double value);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static constexpr int kStrip = 64; // columns decoded together
    enum class Bytes { Ready, Fetching, Failed };
    // Ready when the bytes of the strip at (row, first column) can be read without waiting; else
    // starts fetching them (Fetching), or Failed when a fetch of this tensor failed after its
    // retries: its cells say "unreadable" instead of asking the server again on every paint.
    Bytes readyOrFetch(std::uint64_t row, std::uint64_t col, std::uint64_t n) const;

    TensorLocation m_location;
    Dtype m_dtype = Dtype::F32;
    void fetched(bool ok);              // true: every range arrived
    mutable JobRunner m_fetch{this};    // one fetch at a time, for the tensor shown now
    mutable bool m_waiting = false;     // the last strip asked for was not here
    mutable bool m_fetchFailed = false; // a fetch for this tensor failed

    std::optional<ElementReader> m_reader;
    TensorPlane m_plane;
    bool m_hasPlane = false;
    // The strip decoded last: row, first column, values. One strip is enough for a view painting
    // row by row; the cost of a miss is one small read.
    mutable std::uint64_t m_stripRow = ~std::uint64_t(0);
    mutable std::uint64_t m_stripCol = 0;
    mutable std::vector<double> m_strip;
    mutable bool m_stripOk = false;
};

} // namespace ts::ui
