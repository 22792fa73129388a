#pragma once

#include "Metadata.h"

#include <QAbstractTableModel>

#include <optional>
#include <vector>

namespace ts::ui {

// The `__metadata__` map as a key/value table, in file order. Read-only for now: an editing
// issue adds setData() and flags() on top of the same rows.
class MetadataModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { KeyColumn, ValueColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, FullValueRole, IsJsonRole };

    explicit MetadataModel(QObject* parent = nullptr);
    void setMetadata(const std::optional<Metadata>& metadata);
    const std::optional<Metadata>& metadata() const { return m_metadata; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::optional<Metadata> m_metadata;
    std::vector<bool> m_isJson; // per row, computed once: parsing on every paint would be wasteful
};

} // namespace ts::ui
