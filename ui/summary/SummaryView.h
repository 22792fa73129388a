#pragma once

#include "base/Diagnostic.h"
#include "summary/CheckpointSummary.h"

#include <memory>

#include <QHash>
#include <QScrollArea>

#include <vector>

class QGridLayout;
class QModelIndex;
class QLabel;
class QPushButton;
class QTableView;
class QTreeView;

namespace ts {
struct ModelProfile;
}

namespace ts::ui {

class ArchitecturePanel;
class ValuesVerdict;

class AuditModel;
class DtypeChart;
class ModuleShareModel;

// The page shown on open: what the file is, what it holds, and what the audit found.
class SummaryView final : public QScrollArea {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);

    void setSummary(const CheckpointSummary& summary, std::vector<Diagnostic> warnings);
    // The architecture, the Hub's count and the config check; their findings join the audit list.
    void setProfile(std::shared_ptr<const ModelProfile> profile);
    ArchitecturePanel* architecturePanel() const { return m_architecture; }
    const CheckpointSummary& summary() const { return m_summary; }
    // The text shown for one fact: "fileSize", "tensors", "parameters", "tensorBytes",
    // "headerBytes", "shards", "metadataKeys", "dtypes".
    QString fact(const QString& key) const;

    // The audit's findings. The widgets are found by object name: "audit" (its view) and
    // "removeLeftovers" (shown while the audit lists temporaries of killed saves).
    AuditModel* auditModel() const { return m_audit; }
    // The audit list as shown (its sort order): CSV of its columns, and JSON in the shape of the
    // CLI's findings ({"file", "findings": [...]}). The Export button ("exportAudit") saves them.
    QByteArray auditCsv() const;
    QByteArray auditJson() const;
    ValuesVerdict* valuesVerdict() const { return m_values; }

signals:
    void tensorActivated(const QString& name);
    // A finding with a byte offset in the tensor's file (a NaN's, an Inf's) was activated.
    void elementActivated(const QString& name, quint64 fileOffset);
    // The user asked to delete the leftover temporaries the audit lists.
    void removeLeftoversRequested();

private:
    void addFact(const QString& key, const QString& title, int row, int column);
    void updateAuditTitle();
    // The finding behind a row of the audit view (sorted by its proxy).
    const Diagnostic& diagnosticAt(const QModelIndex& shown) const;

    CheckpointSummary m_summary;
    QLabel* m_title;
    QLabel* m_path;
    ValuesVerdict* m_values;
    ArchitecturePanel* m_architecture;
    QHash<QString, QLabel*> m_facts;
    DtypeChart* m_chart;
    ModuleShareModel* m_modules;
    QTableView* m_moduleView;
    AuditModel* m_audit;
    QTreeView* m_auditView;
    QLabel* m_auditTitle;
    QLabel* m_auditEmpty;
    QPushButton* m_removeLeftovers;
    QPushButton* m_exportAudit;
    QGridLayout* m_grid;
};

} // namespace ts::ui
