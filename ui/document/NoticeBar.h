#pragma once

#include <QFrame>

class QHBoxLayout;

namespace ts::ui {

// The look every bar across the top of a document shares (the file changed on disk, an
// interrupted save): a warning icon on the tooltip colours, then what the subclass adds.
class NoticeBar : public QFrame {
    Q_OBJECT
public:
    explicit NoticeBar(QWidget* parent = nullptr);

protected:
    // The row after the icon: the subclass adds its text and buttons here.
    QHBoxLayout* row() const { return m_row; }

private:
    QHBoxLayout* m_row;
};

} // namespace ts::ui
