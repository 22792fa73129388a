#include "tensor/TensorDetailsView.h"

#include "base/Format.h"
#include "common/DisplayText.h"
#include "tensor/TensorPanel.h"

#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

namespace ts::ui {

TensorDetailsView::TensorDetailsView(QWidget* parent)
    : QWidget(parent), m_panels(new QVBoxLayout), m_splitter(new QSplitter(Qt::Vertical, this))
{
    // The facts scroll in the upper part of the splitter; every label is made inside that widget
    // so no layout holds a widget of another parent.
    auto* scroll = new QScrollArea(m_splitter);
    auto* facts = new QWidget(scroll);
    m_title = new QLabel(facts);
    // A grid, not a QFormLayout: Qt 6.4's QFormLayout read past its row list in heightForWidth
    // when rows were hidden inside this scroll area (valgrind, tst_ui_hostile_text).
    m_form = new QGridLayout;
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.25);
    big.setBold(true);
    m_title->setFont(big);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_form->setColumnStretch(1, 1);
    const std::pair<const char*, QString> fields[] = {
        {"name", tr("Name")},   {"dtype", tr("Dtype")},
        {"shape", tr("Shape")}, {"parameters", tr("Parameters")},
        {"bytes", tr("Size")},  {"range", tr("Byte range")},
        {"shard", tr("File")},
    };
    for (const auto& [key, title] : fields) {
        auto* value = new QLabel(facts);
        value->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setWordWrap(true);
        auto* caption = new QLabel(title, facts);
        const int row = m_form->rowCount();
        m_form->addWidget(caption, row, 0, Qt::AlignLeft | Qt::AlignTop);
        m_form->addWidget(value, row, 1);
        m_fields.insert(QLatin1String(key), value);
        m_captions.insert(QLatin1String(key), caption);
    }
    auto* factsLayout = new QVBoxLayout(facts);
    factsLayout->addWidget(m_title);
    factsLayout->addLayout(m_form);
    factsLayout->addLayout(m_panels);
    factsLayout->addStretch(1);
    scroll->setWidget(facts);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_splitter->setObjectName(QStringLiteral("detailsSplitter")); // its key in WindowMemory: keep it stable
    m_splitter->addWidget(scroll);
    m_splitter->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
    showNode(nullptr, NameTree::kNone);
}

void TensorDetailsView::setModel(std::shared_ptr<const Checkpoint> model)
{
    m_model = std::move(model);
    showNode(nullptr, NameTree::kNone);
}

void TensorDetailsView::addPanel(TensorPanel* panel, Place place)
{
    if (place == Place::Pictures) {
        m_splitter->addWidget(panel);
        // The facts and the pictures share the height at first, and the pictures take three fifths
        // of what the window gains after. With three fifths at first, a 1280x820 window (the
        // default) cut the statistics off after their third row.
        m_splitter->setStretchFactor(0, 2);
        m_splitter->setStretchFactor(m_splitter->count() - 1, 3);
        m_splitter->setSizes({500, 500});
    } else {
        m_panels->addWidget(panel);
    }
    m_panelList.push_back(panel);
    connect(panel, &TensorPanel::readFailed, this, &TensorDetailsView::readFailed);
}

void TensorDetailsView::setField(const QString& key, const QString& text, const QString& toolTip)
{
    QLabel* label = m_fields.value(key);
    label->setText(text);
    label->setToolTip(toolTip);
    label->setVisible(!text.isEmpty());
    if (QWidget* caption = m_captions.value(key))
        caption->setVisible(!text.isEmpty());
}

QString TensorDetailsView::field(const QString& key) const
{
    const QLabel* label = m_fields.value(key);
    return label ? label->text() : QString();
}

void TensorDetailsView::showNode(const NameTree* tree, NameTree::Node node)
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        setField(it.key(), {});
    const bool valid = tree && m_model && node != NameTree::kNone;
    const int tensor = valid ? tree->tensor(node) : -1;
    for (TensorPanel* panel : m_panelList)
        panel->showTensor(m_model, tensor);
    if (!valid) {
        m_title->setText(tr("Select a tensor to see its details."));
        return;
    }
    m_title->setText(itemText(tree->segment(node).toString()));
    const QString path = tree->path(node);
    setField(QStringLiteral("name"), itemText(path),
             path.size() > kItemTextChars ? toolTipText(path) : QString());
    if (tensor >= 0) {
        const CheckpointTensor& t = m_model->tensors()[static_cast<std::size_t>(tensor)];
        const CheckpointPart& part = m_model->partOf(tensor);
        const std::uint64_t begin = m_model->byteOffset(tensor);
        const std::uint64_t end = begin + t.info.byteSize();
        setField(QStringLiteral("dtype"), dtypeName(t.info.dtype));
        setField(QStringLiteral("shape"), t.info.shapeString(),
                 tr("rank %1").arg(formatGrouped(t.info.shape.size())));
        setField(QStringLiteral("parameters"),
                 tr("%1 (%2)").arg(formatGrouped(t.info.elementCount()), formatCount(t.info.elementCount())));
        setField(QStringLiteral("bytes"),
                 tr("%1 (%2 bytes)").arg(formatBytes(t.info.byteSize()), formatGrouped(t.info.byteSize())));
        setField(
            QStringLiteral("range"),
            tr("%1 to %2 in the file (data offsets [%3, %4])")
                .arg(formatGrouped(begin), formatGrouped(end), QString::number(t.info.begin),
                     QString::number(t.info.end)),
            tr("Absolute byte offsets; the header's data_offsets are relative to the end of the header."));
        setField(QStringLiteral("shard"), part.name, part.location);
        return;
    }
    QStringList dtypes;
    for (const DtypeTotals& d : tree->byDtype(node))
        dtypes << tr("%1 \u00d7 %2").arg(formatGrouped(d.tensors), dtypeName(d.dtype));
    setField(QStringLiteral("dtype"), dtypes.join(QStringLiteral(", ")));
    const std::uint64_t count = tree->tensorCount(node);
    setField(QStringLiteral("shape"),
             count == 1 ? tr("group of 1 tensor") : tr("group of %1 tensors").arg(formatGrouped(count)));
    setField(QStringLiteral("parameters"),
             tr("%1 (%2)").arg(formatGrouped(tree->parameters(node)), formatCount(tree->parameters(node))));
    setField(QStringLiteral("bytes"),
             tr("%1 (%2 bytes)").arg(formatBytes(tree->bytes(node)), formatGrouped(tree->bytes(node))));
}

} // namespace ts::ui
