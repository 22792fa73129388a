#pragma once

#include "summary/CheckpointSummary.h"

#include <QAbstractTableModel>

#include <vector>

namespace ts::ui {

// Top-level modules by parameter share, for the summary page.
class ModuleShareModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns { NameColumn, ShareColumn, ParametersColumn, TensorsColumn, BytesColumn, NUM_COLUMNS };
    enum Roles { SortRole = Qt::UserRole, ShareRole /* 0..1 */ };

    explicit ModuleShareModel(QObject* parent = nullptr);
    void setModules(std::vector<ModuleShare> modules);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ModuleShare> m_modules;
};

} // namespace ts::ui
