#include "document/PickleBanner.h"

#include "checkpoint/PyTorchCheckpoint.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStringList>

namespace ts::ui {

PickleBanner::PickleBanner(QWidget* parent) : NoticeBar(parent), m_label(new QLabel(this))
{
    m_label->setWordWrap(true);
    m_label->setForegroundRole(QPalette::ToolTipText);
    m_label->setTextFormat(Qt::PlainText);
    auto* audit = new QPushButton(tr("Show Findings"), this);
    auto* dismiss = new QPushButton(tr("Dismiss"), this);
    QHBoxLayout* layout = row();
    layout->addWidget(m_label, 1);
    layout->addWidget(audit);
    layout->addWidget(dismiss);
    connect(audit, &QPushButton::clicked, this, &PickleBanner::auditRequested);
    connect(dismiss, &QPushButton::clicked, this, &QWidget::hide);
}

QString PickleBanner::messageFor(const Checkpoint& checkpoint)
{
    const auto* c = dynamic_cast<const PyTorchCheckpoint*>(&checkpoint);
    if (!c)
        return {};
    const QString name = c->displayName();
    QStringList dangerous;
    QStringList unknown;
    for (const pickle::GlobalUse& g : c->globals()) {
        const QString global = QString::fromStdString(g.verdict.resolved);
        if (g.verdict.cls == pickle::GlobalClass::Dangerous)
            dangerous << tr("%1 (%2)").arg(global, g.verdict.why);
        else if (g.verdict.cls == pickle::GlobalClass::Unknown)
            unknown << global;
    }
    const auto list = [](QStringList items) {
        if (items.size() > 3)
            items = items.mid(0, 3) << tr("%n more", nullptr, static_cast<int>(items.size() - 3));
        return items.join(QStringLiteral(", "));
    };
    if (c->layout() == pickle::TorchLayout::TorchScript) {
        return tr("%1 is a TorchScript archive: torch.load would hand it to torch.jit.load, which runs the "
                  "code it "
                  "carries. Tensorscope ran nothing; its tensors are shown below.")
            .arg(name);
    }
    if (c->runsCode()) {
        return tr("%1 would run code if loaded with torch.load: %2. Tensorscope read it without running "
                  "anything; "
                  "do not load it in Python.")
            .arg(name, list(dangerous));
    }
    if (c->hasStructuralProblems()) {
        return tr("%1 is built so that torch and other readers (scanners included) may see different things "
                  "in it; "
                  "nothing in it was run. The findings say where.")
            .arg(name);
    }
    if (!unknown.isEmpty()) {
        return tr("%1 names globals torch.load(weights_only=True) refuses: %2. A plain torch.load would "
                  "import and "
                  "call them; Tensorscope ran none.")
            .arg(name, list(unknown));
    }
    return {};
}

void PickleBanner::setCheckpoint(const std::shared_ptr<const Checkpoint>& checkpoint)
{
    const QString text = checkpoint ? messageFor(*checkpoint) : QString();
    m_label->setText(text);
    setVisible(!text.isEmpty());
}

QString PickleBanner::message() const
{
    return m_label->text();
}

} // namespace ts::ui
