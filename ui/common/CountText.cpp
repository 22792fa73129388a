#include "common/CountText.h"

#include "base/Format.h"

namespace ts::ui {

QString CountText::tensors(std::uint64_t n)
{
    return n == 1 ? tr("1 tensor") : tr("%1 tensors").arg(formatGrouped(n));
}

QString CountText::findings(std::uint64_t n)
{
    return n == 1 ? tr("1 finding") : tr("%1 findings").arg(formatGrouped(n));
}

QString CountText::errors(std::uint64_t n)
{
    return n == 1 ? tr("1 error") : tr("%1 errors").arg(formatGrouped(n));
}

QString CountText::values(std::uint64_t n)
{
    return n == 1 ? tr("1 value") : tr("%1 values").arg(formatGrouped(n));
}

QString CountText::pairs(std::uint64_t n)
{
    return n == 1 ? tr("1 pair") : tr("%1 pairs").arg(formatGrouped(n));
}

} // namespace ts::ui
