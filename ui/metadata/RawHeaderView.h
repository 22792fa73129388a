#pragma once

#include <QByteArray>
#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ts::ui {

struct LoadResult;

// The header JSON as the file holds it (re-indented, order kept), with a search box.
class RawHeaderView final : public QWidget {
    Q_OBJECT
public:
    explicit RawHeaderView(QWidget* parent = nullptr);

    void setHeader(const LoadResult& result);
    // Moves to the next (or previous) occurrence of the search text, wrapping around.
    bool findNext(bool backward = false);
    void focusSearch();

    QPlainTextEdit* text() const; // filled on first use

    QLineEdit* searchEdit() const { return m_search; }

protected:
    void showEvent(QShowEvent* event) override;

private:
    void fill() const;
    void showNote(const LoadResult& result) const;

    mutable QByteArray m_pending; // header text not yet laid out: a multi-MB document costs seconds
    mutable std::shared_ptr<LoadResult> m_deferred; // a model whose header is not even read yet
    QLabel* m_note;
    QLineEdit* m_search;
    QLabel* m_status;
    QPlainTextEdit* m_text;
};

} // namespace ts::ui
