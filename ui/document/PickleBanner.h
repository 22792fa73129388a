#pragma once

#include "document/NoticeBar.h"

#include <memory>

class QLabel;
class QPushButton;

namespace ts {
class Checkpoint;
}

namespace ts::ui {

// The bar a document shows for a PyTorch pickle checkpoint that would run code when loaded, is
// built so that readers disagree about it, or names globals torch's weights_only loader refuses:
// what the file would do, said before anything else on the page. Tensorscope ran nothing; the
// audit list has every finding. A clean checkpoint shows no bar.
class PickleBanner final : public NoticeBar {
    Q_OBJECT
public:
    explicit PickleBanner(QWidget* parent = nullptr);

    // Shows the bar for `checkpoint` when it has something to say, hides it otherwise.
    void setCheckpoint(const std::shared_ptr<const Checkpoint>& checkpoint);
    QString message() const;
    // The sentence for a checkpoint, or empty when it needs no bar.
    static QString messageFor(const Checkpoint& checkpoint);

signals:
    void auditRequested();

private:
    QLabel* m_label;
};

} // namespace ts::ui
