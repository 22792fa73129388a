#include "diff/LowRankEstimator.h"

#include "diff/PairReader.h"

#include <Eigen/Dense>
#include <Eigen/SVD>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

namespace ts::diff {
namespace {

// A row block holds at most this many elements of d (64 MiB of floats).
constexpr std::uint64_t kBlockElements = 1u << 24;
// Below this share of the energy, what is left is the arithmetic's own error (float products of a
// few thousand terms), not a direction of the change.
constexpr double kEnergyFloor = 1e-6;

using RowBlock = Eigen::Map<const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

} // namespace

LowRankEstimator::LowRankEstimator(TensorLocation a, TensorInfo infoA, TensorLocation b, TensorInfo infoB)
    : m_a(std::move(a)), m_b(std::move(b)), m_infoA(std::move(infoA)), m_infoB(std::move(infoB))
{
}

std::optional<QString> LowRankEstimator::unsupported(const TensorInfo& info)
{
    if (info.shape.size() < 2)
        return QStringLiteral("the rank is estimated for matrices: \"%1\" has %2 dimension%3")
            .arg(info.name)
            .arg(info.shape.size())
            .arg(info.shape.size() == 1 ? QString() : QStringLiteral("s"));
    const std::uint64_t rows = info.shape[0];
    const std::uint64_t elements = info.elementCount();
    const std::uint64_t cols = rows == 0 ? 0 : elements / rows;
    if (rows < 2 || cols < 2)
        return QStringLiteral("\"%1\" is %2 x %3 as a matrix: a rank needs two rows and two columns")
            .arg(info.name)
            .arg(rows)
            .arg(cols);
    if (cols > kBlockElements)
        return QStringLiteral(
                   "\"%1\" has rows of %2 elements, more than the rank estimate reads at once (%3)")
            .arg(info.name)
            .arg(cols)
            .arg(kBlockElements);
    return std::nullopt;
}

Result<RankEstimate> LowRankEstimator::run(const JobControl& control)
{
    const QString file = m_a.source ? m_a.source->displayName() : QString();
    if (const auto why = unsupported(m_infoA))
        return makeError(ErrorCode::InvalidArgument, file, *why, m_infoA.name);
    if (m_infoA.elementCount() != m_infoB.elementCount() ||
        !PairReader::comparable(m_infoA.dtype, m_infoB.dtype))
        return makeError(ErrorCode::InvalidArgument, file,
                         QStringLiteral("\"%1\" and \"%2\" hold different numbers of values")
                             .arg(m_infoA.name, m_infoB.name),
                         m_infoA.name);
    const std::uint64_t m = m_infoA.shape[0];
    const std::uint64_t n = m_infoA.elementCount() / m;
    const std::uint64_t perDirection = 8 * m + 12 * n; // Y, and W with the float product beside it
    const auto smaller = static_cast<int>(std::min<std::uint64_t>({m, n, 1u << 20}));
    const int fits = static_cast<int>(std::min<std::uint64_t>(m_budget / perDirection, 1u << 20));
    const int maxSketch = std::min({smaller, m_maxSketch, fits});
    if (maxSketch < 1)
        return makeError(ErrorCode::LimitExceeded, file,
                         QStringLiteral("\"%1\" (%2 x %3) is too large for the rank estimate's memory budget")
                             .arg(m_infoA.name)
                             .arg(m)
                             .arg(n),
                         m_infoA.name);
    const auto rowsPerBlock = static_cast<std::size_t>(std::clamp<std::uint64_t>(kBlockElements / n, 1, m));
    std::vector<float> block(rowsPerBlock * static_cast<std::size_t>(n));
    const auto cols = static_cast<Eigen::Index>(n);

    // Streams d = b - a row block by row block (NaN and Inf as 0: they have no direction).
    const auto pass = [&](const std::function<void(Eigen::Index, const RowBlock&)>& onBlock) -> Result<void> {
        PairReader reader(m_a, m_infoA, m_b, m_infoB);
        std::size_t filled = 0;
        Eigen::Index firstRow = 0;
        const auto flush = [&] {
            const auto rows = static_cast<Eigen::Index>(filled / static_cast<std::size_t>(n));
            onBlock(firstRow, RowBlock(block.data(), rows, cols));
            firstRow += rows;
            filled = 0;
        };
        Result<void> read = reader.forEach(0, m * n, control, [&](const PairRun& run) {
            for (std::size_t i = 0; i < run.count; ++i) {
                const float d = run.a ? run.b[i] - run.a[i] : static_cast<float>(run.bd[i] - run.ad[i]);
                block[filled++] = std::isfinite(d) ? d : 0.0f;
                if (filled == block.size())
                    flush();
            }
        });
        if (!read)
            return read;
        if (filled > 0)
            flush();
        return {};
    };

    RankEstimate estimate;
    estimate.rows = m;
    estimate.cols = n;
    std::mt19937_64 random(0x5eed5eedull ^ m_infoA.elementCount());
    std::normal_distribution<float> gaussian;
    int sketch = std::min(kFirstSketch, maxSketch);
    for (;;) {
        Eigen::MatrixXf omega(cols, sketch);
        for (Eigen::Index j = 0; j < omega.cols(); ++j)
            for (Eigen::Index i = 0; i < omega.rows(); ++i)
                omega(i, j) = gaussian(random);
        Eigen::MatrixXd y(static_cast<Eigen::Index>(m), sketch);
        double energy = 0;
        if (Result<void> r = pass([&](Eigen::Index row, const RowBlock& d) {
                y.middleRows(row, d.rows()) = (d * omega).cast<double>();
                energy += d.cast<double>().squaredNorm();
            });
            !r)
            return r.error();
        omega.resize(0, 0);
        estimate.energy = energy;
        // The thin Q of Y: an orthonormal basis of the sampled range.
        const Eigen::HouseholderQR<Eigen::MatrixXd> qr(y);
        const Eigen::MatrixXf q =
            (qr.householderQ() * Eigen::MatrixXd::Identity(static_cast<Eigen::Index>(m), sketch))
                .cast<float>();
        y.resize(0, 0);
        Eigen::MatrixXd w = Eigen::MatrixXd::Zero(cols, sketch); // d^T Q, whose singular values are Q^T d's
        if (Result<void> r = pass([&](Eigen::Index row, const RowBlock& d) {
                w += (d.transpose() * q.middleRows(row, d.rows())).cast<double>();
            });
            !r)
            return r.error();
        const Eigen::BDCSVD<Eigen::MatrixXd> svd(w);
        const Eigen::VectorXd sigma = svd.singularValues();

        estimate.sketch = sketch;
        estimate.singularValues.assign(sigma.data(), sigma.data() + sigma.size());
        // A sketch as wide as the matrix is exact: every direction of it is sampled.
        const bool whole = sketch >= smaller;
        const int limit = whole ? sketch : std::max(1, sketch - kOversampling);
        const double cells = static_cast<double>(m) * static_cast<double>(n);
        const double spread = std::sqrt(static_cast<double>(m)) + std::sqrt(static_cast<double>(n));
        double left = energy;
        int rank = 0;
        while (rank < limit && rank < sigma.size()) {
            const double floor = kNoiseMargin * std::sqrt(std::max(left, 0.0) / cells) * spread;
            if (left <= kEnergyFloor * energy || sigma[rank] <= floor)
                break;
            left -= sigma[rank] * sigma[rank];
            ++rank;
        }
        estimate.aboveNoise = rank;
        estimate.noiseFloor = std::sqrt(std::max(left, 0.0) / cells) * spread;
        // The largest drop among the counted directions; past the sketch the noise floor stands in.
        int best = rank;
        double gap = 0;
        for (int k = 1; k <= rank; ++k) {
            const double next = k < sigma.size() ? sigma[k] : estimate.noiseFloor;
            const double ratio = next > 0 ? sigma[k - 1] / next : std::numeric_limits<double>::infinity();
            if (ratio > gap) {
                gap = ratio;
                best = k;
            }
        }
        estimate.gap = gap;
        estimate.rank = gap >= kGap ? best : rank;
        left = energy;
        for (int k = 0; k < estimate.rank; ++k)
            left -= sigma[k] * sigma[k];
        estimate.captured = energy > 0 ? std::clamp((energy - std::max(left, 0.0)) / energy, 0.0, 1.0) : 0;
        estimate.capturedTop1 =
            energy > 0 && sigma.size() > 0 ? std::min(1.0, sigma[0] * sigma[0] / energy) : 0;
        estimate.capturedSketch = energy > 0 ? std::min(1.0, sigma.squaredNorm() / energy) : 0;
        estimate.lowerBound = rank >= limit && !whole;
        if (!estimate.lowerBound || sketch >= maxSketch)
            break;
        sketch = std::min(maxSketch, 3 * sketch);
    }
    return estimate;
}

} // namespace ts::diff
