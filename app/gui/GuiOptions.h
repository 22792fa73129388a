#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>
#include <QString>

#include <optional>

namespace ts::app {

// tensorscope's command line: the options main() reads, and the --help text and man page printed
// from the same list. It is parsed before any QApplication exists, so --help and --version answer
// on a machine without a display (a QApplication aborts there).
class GuiOptions {
public:
    GuiOptions();

    // Parses argv. Answers --help, --version, --help-man (for the build) and usage errors by
    // printing, and returns the exit status then; nullopt when the window should open. Qt's own
    // options (-platform offscreen, -style Fusion...) are accepted and left to QApplication.
    std::optional<int> parse(int argc, char** argv);

    const QCommandLineParser& parser() const { return m_parser; }
    const QCommandLineOption& screenshot() const { return m_options.at(0); }
    const QCommandLineOption& page() const { return m_options.at(1); }
    const QCommandLineOption& select() const { return m_options.at(2); }
    const QCommandLineOption& size() const { return m_options.at(3); }
    const QCommandLineOption& dark() const { return m_options.at(4); }
    const QCommandLineOption& newWindow() const { return m_options.at(5); }
    const QCommandLineOption& shotDelay() const { return m_options.at(6); }
    const QCommandLineOption& compare() const { return m_options.at(7); }

    QString helpText() const;
    QString manPage() const;

private:
    QList<QCommandLineOption> m_options; // documented, in the order above
    QCommandLineOption m_help;
    QCommandLineOption m_version;
    QCommandLineOption m_helpMan;
    QCommandLineParser m_parser;
};

} // namespace ts::app
