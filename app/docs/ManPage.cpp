#include "ManPage.h"

namespace ts::docs {
namespace {

using namespace Qt::StringLiterals;

bool isPlaceholder(const QString& word)
{
    bool letter = false;
    for (QChar c : word) {
        if (c.isLower())
            return false;
        letter = letter || c.isUpper();
    }
    return letter;
}

} // namespace

ManPage::ManPage(const QString& name, const QString& version, const QString& summary)
{
    // No date: the page is generated at build time and must come out the same on every build.
    m_text = u".TH "_s + name.toUpper() + u" 1 \"\" \""_s + escape(version) + u"\" \"User Commands\"\n"_s;
    section(u"NAME"_s);
    m_text += escape(name) + u" \\- "_s + escape(summary) + u'\n';
}

void ManPage::section(const QString& title)
{
    m_text += u".SH "_s + escape(title) + u'\n';
}

void ManPage::subsection(const QString& title)
{
    m_text += u".SS "_s + escape(title) + u'\n';
}

void ManPage::paragraph(const QString& text)
{
    m_text += u".PP\n"_s + escape(text) + u'\n';
}

void ManPage::synopsis(const QString& program, const QString& arguments)
{
    m_text += u".PP\n.B "_s + escape(program) + u'\n' + term(arguments) + u'\n';
}

void ManPage::item(const QString& itemTerm, const QString& text)
{
    m_text += u".TP\n"_s + term(itemTerm) + u'\n' + escape(text) + u'\n';
}

void ManPage::example(const QString& commandLine)
{
    m_text += u".PP\n.RS\n.nf\n"_s + escape(commandLine) + u"\n.fi\n.RE\n"_s;
}

void ManPage::references(const QStringList& pages)
{
    m_text += u".PP\n"_s;
    for (qsizetype i = 0; i < pages.size(); ++i)
        m_text +=
            u".BR "_s + escape(pages[i]) + u" (1)"_s + (i + 1 < pages.size() ? u","_s : QString()) + u'\n';
}

void ManPage::beginIndent()
{
    m_text += u".RS\n"_s;
}

void ManPage::endIndent()
{
    m_text += u".RE\n"_s;
}

QString ManPage::escape(const QString& text)
{
    QString out;
    out.reserve(text.size() + 16);
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        const bool wordStart = i == 0 || text.at(i - 1).isSpace() || text.at(i - 1) == u'-' ||
                               text.at(i - 1) == u'[' || text.at(i - 1) == u'(' || text.at(i - 1) == u'"';
        if (c == u'\\')
            out += u"\\e"_s;
        else if (c == u'-' && wordStart)
            out += u"\\-"_s;
        else if (c == u'\n')
            out += u' '; // a paragraph is one input line: no line may start with a control character
        else if (c.unicode() > 0x7e || (c.unicode() < 0x20 && c != u'\t'))
            out += u"\\[u"_s + QString::number(c.unicode(), 16).toUpper().rightJustified(4, u'0') + u']';
        else
            out += c;
    }
    if (out.startsWith(u'.') || out.startsWith(u'\''))
        out.prepend(u"\\&"_s);
    return out;
}

QString ManPage::term(const QString& text)
{
    // Each word: an option ("-o," "--output" "[--json]...") bold, a placeholder ("OUT" "KEY=VALUE")
    // italic, the punctuation around them roman.
    QStringList words;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        qsizetype begin = 0, end = word.size();
        while (begin < end && (word.at(begin) == u'[' || word.at(begin) == u'('))
            ++begin;
        while (end > begin && (word.at(end - 1) == u']' || word.at(end - 1) == u',' ||
                               word.at(end - 1) == u'.' || word.at(end - 1) == u'|'))
            --end;
        const QString core = word.mid(begin, end - begin);
        QString font;
        if (core.startsWith(u'-'))
            font = u"\\fB"_s;
        else if (isPlaceholder(core))
            font = u"\\fI"_s;
        // \% : an option or a placeholder is never hyphenated across lines.
        words << u"\\%"_s + escape(word.left(begin)) +
                     (font.isEmpty() ? escape(core) : font + escape(core) + u"\\fR"_s) +
                     escape(word.mid(end));
    }
    QString line = words.join(u' ');
    if (line.startsWith(u'.') || line.startsWith(u'\''))
        line.prepend(u"\\&"_s);
    return line;
}

} // namespace ts::docs
