#include "charts/LayerPointText.h"

#include <QCoreApplication>

#include <cmath>

namespace ts::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ts::ui::LayerPointText", text);
}

QString number(double x)
{
    return QString::number(x, 'g', 3);
}

QString comparison(SiblingStatistic statistic, const SiblingScore& s)
{
    const QString name = SiblingScores::name(statistic);
    if (statistic == SiblingStatistic::NanCount || statistic == SiblingStatistic::InfCount)
        return QStringLiteral("%1 %2").arg(name).arg(static_cast<qulonglong>(s.value));
    if (!std::isfinite(s.value))
        return tr("%1: none (no finite value, or not computed)").arg(name);
    if (!std::isfinite(s.z))
        return tr("%1 %2: not compared (fewer than %3 siblings of its shape and dtype with %4 values)")
            .arg(name, number(s.value))
            .arg(SiblingScores::kMinShownGroup)
            .arg(SiblingScores::kMinElements);
    const QString z = QStringLiteral("%1%2").arg(s.z >= 0 ? QStringLiteral("+") : QString(),
                                                 QString::number(s.z, 'f', std::fabs(s.z) < 10 ? 1 : 0));
    if (statistic == SiblingStatistic::Mean)
        return tr("%1 %2: the median is %3 over %4 blocks (robust z %5)")
            .arg(name, number(s.value), number(s.median))
            .arg(s.group)
            .arg(z);
    return tr("%1 %2: %3 the median %4 of %5 blocks (robust z %6)")
        .arg(name, number(s.value), SiblingScores::ratioText(s.value / s.median), number(s.median))
        .arg(s.group)
        .arg(z);
}

} // namespace

QString layerPointText(const QString& tensor, int block, SiblingStatistic statistic,
                       const SiblingScore& score, bool layerOutlier)
{
    QString text =
        tr("block %1 \u00b7 %2").arg(block).arg(tensor) + QLatin1Char('\n') + comparison(statistic, score);
    if (layerOutlier)
        text += QLatin1Char('\n') + tr("LayerOutlier: listed in the audit");
    else if (score.outlier)
        text += QLatin1Char('\n') + tr("has %1 values")
                                        .arg(statistic == SiblingStatistic::NanCount ? QStringLiteral("NaN")
                                                                                     : QStringLiteral("Inf"));
    return text;
}

} // namespace ts::ui
