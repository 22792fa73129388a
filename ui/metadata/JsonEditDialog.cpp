#include "metadata/JsonEditDialog.h"

#include "common/DisplayText.h"
#include "metadata/JsonPretty.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace ts::ui {

JsonEditDialog::JsonEditDialog(const QString& key, const QString& value, QWidget* parent)
    : QDialog(parent), m_original(value), m_edit(new QPlainTextEdit(this)),
      m_json(new QCheckBox(tr("Check as JSON"), this)), m_status(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Edit \u201c%1\u201d").arg(itemText(key)));
    resize(640, 480);
    const bool json = looksLikeJsonContainer(value);
    m_edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_edit->setLineWrapMode(json ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    if (value.size() > kWordWrapChars)
        m_edit->setWordWrapMode(QTextOption::WrapAnywhere);
    // An editor must hold the whole value: text the printer shortened (clipped lines) is not offered.
    const PrettyJson pretty = json ? prettyJson(value.toUtf8()) : PrettyJson{};
    m_edit->setPlainText(json && !pretty.cut && !pretty.clippedLines ? QString::fromUtf8(pretty.text)
                                                                     : value);
    m_json->setChecked(json);
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_status);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(m_json);
    bottom->addStretch(1);
    bottom->addWidget(m_buttons);
    layout->addLayout(bottom);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &JsonEditDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &JsonEditDialog::reject);
    connect(m_edit, &QPlainTextEdit::textChanged, this, &JsonEditDialog::check);
    connect(m_json, &QCheckBox::toggled, this, &JsonEditDialog::check);
    check();
}

std::optional<QString> JsonEditDialog::jsonError(const QString& text)
{
    const QByteArray utf8 = text.toUtf8();
    QJsonParseError error;
    QJsonDocument::fromJson(utf8, &error);
    if (error.error == QJsonParseError::NoError)
        return std::nullopt;
    // The parser reports a byte offset; people look for lines and columns.
    const QByteArray before = utf8.left(error.offset);
    const int line = static_cast<int>(before.count('\n')) + 1;
    const int column = static_cast<int>(before.size() - (before.lastIndexOf('\n') + 1)) + 1;
    return tr("Not valid JSON: %1 at line %2, column %3.").arg(error.errorString()).arg(line).arg(column);
}

QString JsonEditDialog::compactJson(const QString& text)
{
    QString out;
    out.reserve(text.size());
    bool inString = false;
    bool escaped = false;
    for (const QChar c : text) {
        if (inString) {
            out += c;
            if (escaped)
                escaped = false;
            else if (c == QLatin1Char('\\'))
                escaped = true;
            else if (c == QLatin1Char('"'))
                inString = false;
        } else if (c == QLatin1Char('"')) {
            inString = true;
            out += c;
        } else if (c != QLatin1Char(' ') && c != QLatin1Char('\n') && c != QLatin1Char('\r') &&
                   c != QLatin1Char('\t')) {
            out += c;
        }
    }
    return out;
}

bool JsonEditDialog::isValid() const
{
    return !m_json->isChecked() || !jsonError(m_edit->toPlainText());
}

QString JsonEditDialog::value() const
{
    const QString text = m_edit->toPlainText();
    if (m_json->isChecked() && !m_original.contains(QLatin1Char('\n')))
        return compactJson(text);
    return text;
}

void JsonEditDialog::check()
{
    const std::optional<QString> error =
        m_json->isChecked() ? jsonError(m_edit->toPlainText()) : std::nullopt;
    m_status->setText(error ? *error : (m_json->isChecked() ? tr("Valid JSON.") : QString()));
    m_status->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!error);
}

void JsonEditDialog::accept()
{
    // OK is disabled while the text is invalid, but Enter or a caller may still get here.
    if (!isValid())
        return;
    QDialog::accept();
}

} // namespace ts::ui
