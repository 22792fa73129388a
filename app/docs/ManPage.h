#pragma once

#include <QString>
#include <QStringList>

namespace ts::docs {

// A man(7) page built section by section from plain text. Text is escaped here (backslashes, a
// leading dot or quote, option dashes, non-ASCII), so callers hand in the same sentences their
// --help prints and `groff -man -ww` has nothing to warn about.
class ManPage {
public:
    // .TH and the NAME section: "tensorscope-cli \- summary".
    ManPage(const QString& name, const QString& version, const QString& summary);

    void section(const QString& title);
    void subsection(const QString& title);
    void paragraph(const QString& text);
    // A synopsis line: the program in bold, then `arguments` (options bold, placeholders italic).
    void synopsis(const QString& program, const QString& arguments);
    // A tagged paragraph: `term` in bold (its placeholders italic), then `text` indented.
    void item(const QString& term, const QString& text);
    // A command line shown as typed, indented and unfilled.
    void example(const QString& commandLine);
    // "name(1), other(1)" with the names bold: SEE ALSO.
    void references(const QStringList& pages);
    void beginIndent();
    void endIndent();

    QString text() const { return m_text; }

    // Plain text as roff: a leading '-' of a word becomes \- (a minus, as options are typed).
    static QString escape(const QString& text);
    // "-o, --output OUT" as roff: option names bold, upper-case placeholders italic.
    static QString term(const QString& text);

private:
    QString m_text;
};

} // namespace ts::docs
