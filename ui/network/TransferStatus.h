#pragma once

#include <QLabel>

#include <memory>

class QTimer;

namespace ts {
class Checkpoint;
}

namespace ts::ui {

// The status bar's word on a model read from a server: how much has come over the network and
// how much from the disk cache, refreshed while the window shows it (a scan moves gigabytes).
// Hidden for local models.
class TransferStatus final : public QLabel {
    Q_OBJECT
public:
    explicit TransferStatus(QWidget* parent = nullptr);

    void setCheckpoint(std::shared_ptr<const Checkpoint> checkpoint);
    // The sentence for `checkpoint` now, or an empty string for a local one.
    static QString describe(const Checkpoint& checkpoint);

private:
    void refresh();

    std::shared_ptr<const Checkpoint> m_checkpoint;
    QTimer* m_timer;
};

} // namespace ts::ui
