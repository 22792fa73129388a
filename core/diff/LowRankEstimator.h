#pragma once

#include "analysis/TensorBlockReader.h"
#include "base/JobControl.h"
#include "base/Result.h"
#include "diff/RankEstimate.h"
#include "format/TensorInfo.h"
#include "io/TensorLocation.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace ts::diff {

// Estimates the numerical rank of d = B - A (as rows = shape[0], columns = the rest) with a
// randomized range finder (Halko, Martinsson and Tropp 2011, algorithm 4.1): Y = d * Omega for a
// Gaussian Omega of `sketch` columns, Q = orth(Y), and the singular values of Q^T d, which are
// those of d's top `sketch` directions. The tensors are streamed row block by row block, twice
// per round; nothing is loaded whole. Memory: about (8 rows + 12 cols) * sketch bytes, bounded by
// `memoryBudget`. The linear algebra is Eigen's.
//
// The rank is the number of singular values above the noise floor the rest of the energy implies:
// with E_r = ||d||^2 - (sigma_1^2 + ... + sigma_r^2) left, noise of that energy spread over an
// m x n matrix reaches sigma = sqrt(E_r / (m n)) (sqrt(m) + sqrt(n)) at most (Marchenko-Pastur);
// sigma_{r+1} must exceed kNoiseMargin times that to count. A round whose every direction counts
// is repeated with a larger sketch, up to the largest the memory and the matrix allow. Among the
// directions that count, the rank ends at the largest drop sigma_k / sigma_k+1 when that is at
// least kGap; without such a drop it is all of them (RankEstimate::rank).
class LowRankEstimator {
public:
    static constexpr double kNoiseMargin = 3.0;
    // A drop of at least this factor between two consecutive singular values is where a low-rank
    // update ends (a LoRA's last direction against the noise after it).
    static constexpr double kGap = 4.0;
    static constexpr int kOversampling = 8;
    static constexpr int kFirstSketch = 24;
    static constexpr int kMaxSketch = 264;

    LowRankEstimator(TensorLocation a, TensorInfo infoA, TensorLocation b, TensorInfo infoB);

    void setMemoryBudget(std::uint64_t bytes) { m_budget = bytes; }
    void setMaxSketch(int sketch) { m_maxSketch = sketch; }

    // Why the rank of this tensor is not estimated (a vector, a side shorter than 2, a row longer
    // than 2^24 elements), or nullopt when it can be.
    static std::optional<QString> unsupported(const TensorInfo& info);

    Result<RankEstimate> run(const JobControl& control);

private:
    TensorLocation m_a, m_b;
    TensorInfo m_infoA, m_infoB;
    std::uint64_t m_budget = 256u << 20;
    int m_maxSketch = kMaxSketch;
};

} // namespace ts::diff
