#include "summary/ArchitecturePanel.h"

#include "base/Format.h"
#include "common/DisplayText.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ts::ui {
namespace {

// Fields per row of the grid; each takes a caption over a value.
constexpr int kFieldsPerRow = 6;

QLabel* muted(QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setForegroundRole(QPalette::PlaceholderText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// Text from a header, shown plain: a name can hold markup and control characters.
QString plain(const QString& text)
{
    return itemText(text).toHtmlEscaped();
}

} // namespace

ArchitecturePanel::ArchitecturePanel(QWidget* parent)
    : QWidget(parent), m_title(new QLabel(this)), m_config(muted(this)), m_fields(new QGridLayout),
      m_hub(new QLabel(this)), m_pipeline(muted(this)), m_notes(muted(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.1);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_hub->setWordWrap(true);
    m_hub->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fields->setHorizontalSpacing(22);
    m_fields->setVerticalSpacing(2);
    layout->addWidget(m_title);
    layout->addWidget(m_config);
    layout->addLayout(m_fields);
    layout->addWidget(m_hub);
    layout->addWidget(m_pipeline);
    layout->addWidget(m_notes);
    m_pipeline->hide();
    m_notes->hide();
}

void ArchitecturePanel::clearFields()
{
    while (QLayoutItem* item = m_fields->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_shown.clear();
}

void ArchitecturePanel::addComponent(const ArchitectureComponent& c, int& row)
{
    const ConfigCheckResult* config = m_profile ? &m_profile->config : nullptr;
    const bool several = m_profile && m_profile->architecture.components.size() > 1;
    if (several) {
        auto* heading = new QLabel(
            QStringLiteral("<b>%1</b>: %2%3")
                .arg(plain(c.role), plain(c.name),
                     c.detail.isEmpty() ? QString() : QStringLiteral(" &middot; ") + plain(c.detail)),
            this);
        heading->setWordWrap(true);
        m_fields->addWidget(heading, row++, 0, 1, kFieldsPerRow);
    }
    int column = 0;
    for (const ArchitectureField& f : c.fields) {
        if (!f.shown)
            continue;
        const ConfigComparison* cmp = nullptr;
        if (config) {
            for (const ConfigComparison& candidate : config->comparisons) {
                if (candidate.component == c.role && candidate.key == f.key)
                    cmp = &candidate;
            }
        }
        if (column == kFieldsPerRow) {
            column = 0;
            row += 2;
        }
        auto* caption = muted(this);
        caption->setWordWrap(false);
        caption->setText(f.label);
        auto* value = new QLabel(this);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        const bool disagrees = cmp && cmp->compared && !cmp->agrees;
        QString text = f.known() ? plain(elideText(f.display(), 40))
                                 : QStringLiteral("<i>%1</i>").arg(tr("cannot tell"));
        if (disagrees)
            text = QStringLiteral("<span style='color:#c62828'><b>%1</b> &ne; %2</span>")
                       .arg(text,
                            plain(QStringLiteral("%1 %2").arg(cmp->configKey, elideText(cmp->config, 30))));
        else if (cmp && !cmp->compared)
            text += QStringLiteral(" <span style='color:gray'>(config: %1)</span>")
                        .arg(plain(elideText(cmp->config, 30)));
        value->setText(text);
        QString tip = f.evidence;
        if (cmp)
            tip += QLatin1Char('\n') + tr("config.json: %1 = %2").arg(cmp->configKey, cmp->config);
        value->setToolTip(toolTipText(tip));
        m_fields->addWidget(caption, row, column);
        m_fields->addWidget(value, row + 1, column);
        m_shown.push_back({c.role, f.key, value, disagrees});
        ++column;
    }
    row += 2;
}

void ArchitecturePanel::setProfile(std::shared_ptr<const ModelProfile> profile)
{
    m_profile = std::move(profile);
    clearFields();
    if (!m_profile) {
        m_title->clear();
        m_config->clear();
        m_hub->clear();
        m_pipeline->hide();
        m_notes->hide();
        return;
    }
    const Architecture& a = m_profile->architecture;
    const ArchitectureComponent* main = a.components.empty() ? nullptr : &a.components.front();
    QString title =
        a.recognized() ? tr("Architecture: %1").arg(plain(a.name)) : tr("Architecture: not recognised");
    if (main && a.components.size() == 1 && !main->detail.isEmpty())
        title +=
            QStringLiteral(" <span style='font-weight:normal'>&middot; %1</span>").arg(plain(main->detail));
    m_title->setText(title);

    const ConfigCheckResult& config = m_profile->config;
    if (!config.found()) {
        m_config->setText(
            tr("No config.json beside the weights: the fields are what the names and shapes say."));
    } else if (!config.problem.isEmpty()) {
        m_config->setText(tr("%1 %2.").arg(plain(config.path), plain(config.problem)));
    } else {
        int agree = 0, disagree = 0;
        for (const ConfigComparison& cmp : config.comparisons) {
            agree += cmp.compared && cmp.agrees;
            disagree += cmp.compared && !cmp.agrees;
        }
        QString names = config.architecture.isEmpty() ? config.modelType : config.architecture;
        m_config->setText(tr("Compared with %1%2: %3 agree, %4 disagree%5.")
                              .arg(plain(QFileInfo(config.path).fileName()),
                                   names.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(plain(names)))
                              .arg(agree)
                              .arg(disagree)
                              .arg(config.findings.empty() ? QString() : tr("; see the audit list")));
    }
    int row = 0;
    for (const ArchitectureComponent& c : a.components)
        addComponent(c, row);

    const HubParameterCount& hub = m_profile->hub;
    if (hub.counted) {
        QStringList perDtype;
        for (const HubDtypeCount& d : hub.dtypes)
            perDtype << QStringLiteral("%1 %2").arg(dtypeName(d.dtype), formatGrouped(d.parameters));
        m_hub->setText(tr("<b>Parameters as the Hub counts: %1</b> (%2) &middot; %3 &middot; elements %4")
                           .arg(formatGrouped(hub.total()), formatCount(hub.total()),
                                perDtype.join(QStringLiteral(", ")), formatGrouped(hub.elements)));
        QString tip = tr("The Hub's rule: %1.").arg(hub.weights.rule);
        if (hub.skippedTensors)
            tip +=
                tr("\nLeft out: %1 tensors (%2 elements): scalars, scales, zero points, quantisation state.")
                    .arg(formatGrouped(hub.skippedTensors), formatGrouped(hub.skippedElements));
        if (!hub.quantMethod.isEmpty())
            tip += tr("\nquantization_config: %1.").arg(hub.quantMethod);
        if (hub.declaredTotal)
            tip += tr("\nThe metadata declares total_parameters %1.").arg(formatGrouped(*hub.declaredTotal));
        m_hub->setToolTip(toolTipText(tip));
    } else {
        m_hub->setText(hub.error ? tr("Parameters as the Hub counts: its weights cannot be read (%1)")
                                       .arg(plain(hub.error->message))
                                 : tr("Parameters as the Hub counts: %1").arg(plain(hub.weights.rule)));
        m_hub->setToolTip(QString());
    }

    QStringList parts;
    for (const PipelinePart& p : m_profile->pipeline) {
        if (p.weights.isEmpty())
            continue;
        parts << QStringLiteral("%1%2 %3").arg(plain(p.name), p.opened ? tr(" (shown)") : QString(),
                                               p.problem.isEmpty() ? formatCount(p.parameters)
                                                                   : tr("unreadable"));
    }
    m_pipeline->setText(
        parts.isEmpty() ? QString() : tr("Pipeline components: %1").arg(parts.join(QStringLiteral(", "))));
    m_pipeline->setVisible(!parts.isEmpty());
    m_notes->setText(plain(a.notes.join(QLatin1Char(' '))));
    m_notes->setVisible(!a.notes.isEmpty());
}

QString ArchitecturePanel::title() const
{
    return m_title->text();
}

QString ArchitecturePanel::fieldText(const QString& role, const QString& key) const
{
    for (const Shown& s : m_shown) {
        if (s.role == role && s.key == key)
            return s.value->text();
    }
    return {};
}

bool ArchitecturePanel::fieldDisagrees(const QString& role, const QString& key) const
{
    for (const Shown& s : m_shown) {
        if (s.role == role && s.key == key)
            return s.disagrees;
    }
    return false;
}

QString ArchitecturePanel::configText() const
{
    return m_config->text();
}

QString ArchitecturePanel::hubText() const
{
    return m_hub->text();
}

QString ArchitecturePanel::pipelineText() const
{
    return m_pipeline->text();
}

} // namespace ts::ui
