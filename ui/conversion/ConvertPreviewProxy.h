#pragma once

#include "common/NaturalSortProxy.h"

namespace ts::ui {

// The Convert dialog's preview as the user sorts and filters it: numbers by their raw value
// (ConvertPreviewModel::RawRole, so "1.2 GB" comes after "900 MB"), names in the tensor tree's
// natural order, and "Problems only" keeping the rows a reviewer must look at
// (PlannedTensor::hasProblem: overflow, underflow, NaN or Inf, a dtype kept against the request).
class ConvertPreviewProxy final : public NaturalSortProxy {
    Q_OBJECT
public:
    explicit ConvertPreviewProxy(QObject* parent = nullptr);

    void setProblemsOnly(bool only);
    bool problemsOnly() const { return m_problemsOnly; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool m_problemsOnly = false;
};

} // namespace ts::ui
