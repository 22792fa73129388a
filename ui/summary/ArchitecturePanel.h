#pragma once

#include "architecture/ModelProfile.h"

#include <QString>
#include <QWidget>

#include <memory>

class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace ts::ui {

// The summary's architecture section: what the names and shapes say the model is, the
// configuration they give (layers, widths, heads where a per-head tensor says, vocabulary,
// experts) with "cannot tell" where they do not, each field beside config.json's value when a
// config sits beside the weights (a disagreement in red), the parameter count as the Hub shows
// it and, for a diffusers pipeline, its other components.
class ArchitecturePanel final : public QWidget {
    Q_OBJECT
public:
    explicit ArchitecturePanel(QWidget* parent = nullptr);

    void setProfile(std::shared_ptr<const ModelProfile> profile);
    const ModelProfile* profile() const { return m_profile.get(); }

    // What the user reads, for tests: the heading, a field's value ("32", "cannot tell") of the
    // component with `role`, whether it is shown as disagreeing with config.json, the Hub line.
    QString title() const;
    QString fieldText(const QString& role, const QString& key) const;
    bool fieldDisagrees(const QString& role, const QString& key) const;
    QString configText() const;
    QString hubText() const;
    QString pipelineText() const;

private:
    void clearFields();
    void addComponent(const ArchitectureComponent& component, int& row);

    std::shared_ptr<const ModelProfile> m_profile;
    QLabel* m_title;
    QLabel* m_config;
    QGridLayout* m_fields;
    QLabel* m_hub;
    QLabel* m_pipeline;
    QLabel* m_notes;
    struct Shown {
        QString role;
        QString key;
        QLabel* value = nullptr;
        bool disagrees = false;
    };
    std::vector<Shown> m_shown;
};

} // namespace ts::ui
