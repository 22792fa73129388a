#include "report/SvgChart.h"

#include "report/HtmlText.h"

#include <algorithm>
#include <cmath>

namespace ts::svg {
namespace {

QString num(double v)
{
    return QString::number(v, 'f', 1);
}

QString shortValue(double v)
{
    return QString::number(v, 'g', 3);
}

} // namespace

QString layerChart(const QString& caption, const std::vector<int>& x, const std::vector<Series>& series,
                   const std::vector<int>& flagged)
{
    constexpr double W = 640, H = 210, L = 58, R = 12, T = 26, B = 30;
    const double pw = W - L - R, ph = H - T - B;
    double lo = INFINITY, hi = -INFINITY;
    for (const Series& s : series) {
        for (double v : s.values) {
            if (std::isfinite(v) && v > 0) {
                lo = std::min(lo, std::log10(v));
                hi = std::max(hi, std::log10(v));
            }
        }
    }
    QString out;
    out += QStringLiteral("<svg class=\"chart\" viewBox=\"0 0 %1 %2\" role=\"img\" "
                          "aria-label=\"%3\">")
               .arg(W)
               .arg(H)
               .arg(html::text(caption));
    if (x.empty() || !std::isfinite(lo)) {
        out += QStringLiteral(
                   "<text x=\"%1\" y=\"%2\" class=\"muted\">no finite positive values to plot</text></svg>")
                   .arg(L)
                   .arg(T + ph / 2);
        return out;
    }
    double ylo = std::floor(lo), yhi = std::ceil(hi);
    if (yhi - ylo < 1)
        yhi = ylo + 1;
    const int xmin = *std::min_element(x.begin(), x.end());
    const int xmax = *std::max_element(x.begin(), x.end());
    auto px = [&](int b) { return L + (xmax == xmin ? pw / 2 : (b - xmin) * pw / (xmax - xmin)); };
    auto py = [&](double v) { return T + ph - (std::log10(v) - ylo) * ph / (yhi - ylo); };

    // Axes and decade grid lines.
    out += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" class=\"plot\"/>")
               .arg(L)
               .arg(T)
               .arg(pw)
               .arg(ph);
    const int decades = static_cast<int>(yhi - ylo);
    const int step = std::max(1, decades / 6);
    for (int d = static_cast<int>(ylo); d <= static_cast<int>(yhi); d += step) {
        const double y = T + ph - (d - ylo) * ph / (yhi - ylo);
        out += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" class=\"grid\"/>")
                   .arg(L)
                   .arg(num(y))
                   .arg(L + pw);
        out += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"tick\" text-anchor=\"end\">1e%3</text>")
                   .arg(L - 6)
                   .arg(num(y + 4))
                   .arg(d);
    }
    const int xstep = std::max(1, (xmax - xmin) / 10);
    for (int b = xmin; b <= xmax; b += xstep)
        out += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"tick\" text-anchor=\"middle\">%3</text>")
                   .arg(num(px(b)))
                   .arg(H - B + 16)
                   .arg(b);
    out += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"tick\" text-anchor=\"middle\">block</text>")
               .arg(num(L + pw / 2))
               .arg(H - 2);

    // The series: polylines broken at gaps, a dot per block with its value as a tooltip.
    double legendX = L;
    for (const Series& s : series) {
        QString points;
        auto flush = [&] {
            if (points.count(QLatin1Char(' ')) >= 1)
                out += QStringLiteral(
                           "<polyline points=\"%1\" fill=\"none\" stroke=\"%2\" stroke-width=\"1.5\"/>")
                           .arg(points.trimmed(), s.color);
            points.clear();
        };
        for (std::size_t i = 0; i < x.size() && i < s.values.size(); ++i) {
            const double v = s.values[i];
            if (!std::isfinite(v) || v <= 0) {
                flush();
                continue;
            }
            points += num(px(x[i])) + QLatin1Char(',') + num(py(v)) + QLatin1Char(' ');
        }
        flush();
        for (std::size_t i = 0; i < x.size() && i < s.values.size(); ++i) {
            const double v = s.values[i];
            if (!std::isfinite(v) || v <= 0)
                continue;
            out += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"2.2\" fill=\"%3\"><title>block %4: %5 "
                                  "%6</title></circle>")
                       .arg(num(px(x[i])), num(py(v)), s.color)
                       .arg(x[i])
                       .arg(html::text(s.label), shortValue(v));
        }
        out += QStringLiteral("<rect x=\"%1\" y=\"8\" width=\"10\" height=\"10\" fill=\"%2\"/>"
                              "<text x=\"%3\" y=\"17\" class=\"legend\">%4</text>")
                   .arg(num(legendX), s.color, num(legendX + 14), html::text(s.label));
        legendX += 24 + 7 * s.label.size();
    }
    for (int b : flagged) {
        const auto it = std::find(x.begin(), x.end(), b);
        if (it == x.end() || series.empty())
            continue;
        const double v = series.front().values[static_cast<std::size_t>(it - x.begin())];
        const double y = std::isfinite(v) && v > 0 ? py(v) : T + ph / 2;
        out += QStringLiteral(
                   "<circle cx=\"%1\" cy=\"%2\" r=\"6\" class=\"flag\"><title>block %3 differs from its "
                   "siblings (LayerOutlier)</title></circle>")
                   .arg(num(px(b)), num(y))
                   .arg(b);
    }
    out += QStringLiteral("</svg>");
    return out;
}

QString bars(const QString& caption, const std::vector<std::pair<QString, double>>& rows,
             const QStringList& valueTexts, const QString& color)
{
    constexpr double W = 640, row = 24, L = 110, R = 150;
    const double H = 8 + row * static_cast<double>(rows.size());
    double top = 0;
    for (const auto& r : rows)
        top = std::max(top, r.second);
    QString out = QStringLiteral("<svg class=\"chart\" viewBox=\"0 0 %1 %2\" "
                                 "role=\"img\" aria-label=\"%3\">")
                      .arg(W)
                      .arg(H)
                      .arg(html::text(caption));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double y = 4 + row * static_cast<double>(i);
        const double w = top > 0 ? (W - L - R) * rows[i].second / top : 0;
        const QString value = i < static_cast<std::size_t>(valueTexts.size())
                                  ? valueTexts[static_cast<qsizetype>(i)]
                                  : QString();
        out += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"tick\" text-anchor=\"end\">%3</text>")
                   .arg(L - 8)
                   .arg(num(y + 15))
                   .arg(html::text(rows[i].first));
        out +=
            QStringLiteral(
                "<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"16\" fill=\"%4\"><title>%5: %6</title></rect>")
                .arg(L)
                .arg(num(y + 3))
                .arg(num(std::max(w, 1.0)))
                .arg(color, html::text(rows[i].first), html::text(value));
        out += QStringLiteral("<text x=\"%1\" y=\"%2\" class=\"tick\">%3</text>")
                   .arg(num(L + std::max(w, 1.0) + 6))
                   .arg(num(y + 15))
                   .arg(html::text(value));
    }
    out += QStringLiteral("</svg>");
    return out;
}

} // namespace ts::svg
