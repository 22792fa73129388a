#pragma once

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace ts::ui {

// "1 tensor", "12,288 tensors" for the window, translatable: core's formatNoun glues an English
// plural on and is kept for the command line and the reports. Whole phrases per count, since a
// translation cannot inflect a suffix (and the window has no English catalogue for %n plurals).
class CountText final {
    Q_DECLARE_TR_FUNCTIONS(ts::ui::CountText)
public:
    static QString tensors(std::uint64_t n);
    static QString findings(std::uint64_t n);
    static QString errors(std::uint64_t n);
    static QString values(std::uint64_t n);
    static QString pairs(std::uint64_t n);
};

} // namespace ts::ui
