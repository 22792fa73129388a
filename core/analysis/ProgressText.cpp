#include "analysis/ProgressText.h"

#include "base/Format.h"

#include <algorithm>
#include <cmath>

namespace ts {

QString progressLine(const Progress& p, int barWidth)
{
    const double fraction =
        p.bytesTotal
            ? std::clamp(static_cast<double>(p.bytesDone) / static_cast<double>(p.bytesTotal), 0.0, 1.0)
            : 1.0;
    const int filled = static_cast<int>(std::lround(fraction * barWidth));
    QString line = QLatin1Char('[') + QString(filled, QLatin1Char('#')) +
                   QString(barWidth - filled, QLatin1Char(' ')) +
                   QStringLiteral("] %1%").arg(static_cast<int>(fraction * 100), 3);
    line += QStringLiteral("  %1 / %2").arg(formatBytes(p.bytesDone), formatBytes(p.bytesTotal));
    if (p.bytesPerSecond > 0)
        line += QStringLiteral("  %1/s").arg(formatBytes(static_cast<std::uint64_t>(p.bytesPerSecond)));
    if (p.etaSeconds >= 0)
        line += QStringLiteral("  ETA %1 s").arg(static_cast<qint64>(std::ceil(p.etaSeconds)));
    return line;
}

} // namespace ts
