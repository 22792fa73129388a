#pragma once

#include "diff/MetadataDiff.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::ui {

// The metadata keys the two checkpoints disagree on: key, what happened, A's value, B's value.
class MetadataDiffModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { KeyColumn, ChangeColumn, AColumn, BColumn, NUM_COLUMNS };

    explicit MetadataDiffModel(QObject* parent = nullptr);

    void setChanges(std::vector<diff::MetadataChange> changes);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<diff::MetadataChange> m_changes;
};

} // namespace ts::ui
