#include "MetadataModel.h"

#include "JsonPretty.h"

namespace ts::ui {
namespace {

constexpr qsizetype kDisplayChars = 400;
constexpr qsizetype kToolTipChars = 3000;

QString oneLine(const QString& value)
{
    QString text = value.left(kDisplayChars);
    text.replace(QLatin1Char('\n'), QChar(0x23CE)).replace(QLatin1Char('\t'), QLatin1Char(' '));
    if (value.size() > kDisplayChars)
        text += QChar(0x2026);
    return text;
}

} // namespace

MetadataModel::MetadataModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetadataModel::setMetadata(const std::optional<Metadata>& metadata)
{
    beginResetModel();
    m_metadata = metadata;
    m_isJson.clear();
    if (m_metadata) {
        for (const auto& [key, value] : m_metadata->entries())
            m_isJson.push_back(looksLikeJsonContainer(value));
    }
    endResetModel();
}

int MetadataModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_metadata ? 0 : m_metadata->size();
}

int MetadataModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant MetadataModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& [key, value] = m_metadata->entries()[static_cast<std::size_t>(index.row())];
    const bool json = m_isJson[static_cast<std::size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == KeyColumn ? key : oneLine(value);
    case Qt::ToolTipRole: {
        const QString text = index.column() == KeyColumn ? key : value;
        QString shown = text.left(kToolTipChars);
        if (text.size() > kToolTipChars)
            shown += QChar(0x2026);
        // Rich text so that long values wrap instead of running off the screen.
        return QStringLiteral("<p style='white-space:pre-wrap'>%1</p>").arg(shown.toHtmlEscaped());
    }
    case SortRole:
        return index.column() == KeyColumn ? key : value;
    case FullValueRole:
        return value;
    case IsJsonRole:
        return json;
    }
    return {};
}

QVariant MetadataModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Key") : tr("Value");
}

} // namespace ts::ui
