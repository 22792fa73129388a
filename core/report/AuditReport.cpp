#include "report/AuditReport.h"

#include <algorithm>

namespace ts {

std::vector<Diagnostic> AuditReport::allFindings() const
{
    std::vector<Diagnostic> all = validation;
    const std::vector<Diagnostic> profileFindings = profile.findings();
    all.insert(all.end(), profileFindings.begin(), profileFindings.end());
    all.insert(all.end(), scanFindings.begin(), scanFindings.end());
    std::stable_sort(all.begin(), all.end(),
                     [](const Diagnostic& a, const Diagnostic& b) { return a.severity > b.severity; });
    return all;
}

int AuditReport::errorCount() const
{
    const std::vector<Diagnostic> all = allFindings();
    return static_cast<int>(std::count_if(all.begin(), all.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::Error; }));
}

} // namespace ts
