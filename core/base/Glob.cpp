#include "base/Glob.h"

namespace ts {

QRegularExpression globToRegularExpression(const QString& glob, Qt::CaseSensitivity cs)
{
    QString rx;
    rx.reserve(glob.size() * 2 + 8);
    rx += QStringLiteral("\\A(?:");
    for (qsizetype i = 0; i < glob.size(); ++i) {
        const QChar c = glob[i];
        if (c == QLatin1Char('*')) {
            rx += QStringLiteral(".*");
        } else if (c == QLatin1Char('?')) {
            rx += QLatin1Char('.');
        } else if (c == QLatin1Char('[')) {
            const qsizetype close = glob.indexOf(QLatin1Char(']'), i + 2);
            if (close < 0) {
                rx += QStringLiteral("\\[");
                continue;
            }
            QString cls = glob.mid(i + 1, close - i - 1);
            const bool negate = cls.startsWith(QLatin1Char('!'));
            if (negate)
                cls.remove(0, 1);
            cls.replace(QLatin1Char('\\'), QStringLiteral("\\\\"));
            rx += QLatin1Char('[') + (negate ? QStringLiteral("^") : QString()) + cls + QLatin1Char(']');
            i = close;
        } else {
            rx += QRegularExpression::escape(QString(c));
        }
    }
    rx += QStringLiteral(")\\z");
    QRegularExpression::PatternOptions options = QRegularExpression::DotMatchesEverythingOption;
    if (cs == Qt::CaseInsensitive)
        options |= QRegularExpression::CaseInsensitiveOption;
    return QRegularExpression(rx, options);
}

} // namespace ts
