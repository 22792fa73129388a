#include "pickle/PickleAudit.h"

#include "base/Format.h"

namespace ts::pickle {
namespace {

QString writtenAs(const GlobalUse& g)
{
    const QString written = QString::fromStdString(g.module + "." + g.name);
    const QString resolved = QString::fromStdString(g.verdict.resolved);
    return written == resolved ? resolved : QStringLiteral("%1 (written as %2)").arg(resolved, written);
}

QString placeAndCount(const GlobalUse& g)
{
    return QStringLiteral("%1, first at byte %2 in %3")
        .arg(formatNoun(g.count, "time", "times"))
        .arg(g.firstOffset)
        .arg(g.where);
}

Diagnostic describe(const GlobalUse& g)
{
    Diagnostic d;
    d.offset = g.firstOffset;
    const QString what = writtenAs(g);
    const QString reached =
        g.readByTorch ? QString()
                      : QStringLiteral(" torch.load does not read that pickle, but another loader may.");
    switch (g.verdict.cls) {
    case GlobalClass::Dangerous:
        d.code = QStringLiteral("PickleDangerousGlobal");
        d.severity = Severity::Error;
        d.message = QStringLiteral("%1 is named %2: loading the file would call it, and it %3.%4")
                        .arg(what, placeAndCount(g), g.verdict.why, reached);
        break;
    case GlobalClass::Unknown:
        d.code = QStringLiteral("PickleUnknownGlobal");
        d.severity = Severity::Warning;
        d.message =
            QStringLiteral("%1 is named %2: not on torch's weights_only allowlist, so torch.load would "
                           "import and call code Tensorscope does not know (it was not run).%3")
                .arg(what, placeAndCount(g), reached);
        break;
    case GlobalClass::Allowed:
        d.code = QStringLiteral("PickleGlobal");
        d.severity = Severity::Info;
        d.message = QStringLiteral("%1 is named %2: on torch's weights_only allowlist, read by Tensorscope "
                                   "without running it.%3")
                        .arg(what, placeAndCount(g), reached);
        break;
    }
    return d;
}

} // namespace

void PickleAudit::noteGlobal(const std::string& module, const std::string& name, const GlobalVerdict& verdict,
                             std::uint64_t offset, const QString& where, bool readByTorch,
                             std::uint64_t count)
{
    const QByteArray key = QByteArray::fromStdString(module) + '\n' + QByteArray::fromStdString(name);
    if (auto it = m_globalIndex.constFind(key); it != m_globalIndex.constEnd()) {
        GlobalUse& g = m_globals[*it];
        g.count += count;
        if (readByTorch && !g.readByTorch) {
            g.readByTorch = true;
            g.firstOffset = offset;
            g.where = where;
        }
        return;
    }
    m_globalIndex.insert(key, m_globals.size());
    m_globals.push_back(GlobalUse{module, name, verdict, count, offset, where, readByTorch});
}

void PickleAudit::add(const QString& code, Severity severity, const QString& message,
                      std::optional<std::uint64_t> offset, const QString& tensor, FindingKind kind)
{
    if (m_findings.size() >= kMaxFindings) {
        ++m_dropped;
        return;
    }
    m_findings.push_back(Diagnostic{code, severity, message, tensor, offset});
    m_kinds.push_back(kind);
}

bool PickleAudit::has(const QString& code) const
{
    for (const Diagnostic& d : m_findings) {
        if (d.code == code)
            return true;
    }
    for (const GlobalUse& g : m_globals) {
        if (describe(g).code == code)
            return true;
    }
    return false;
}

std::vector<Diagnostic> PickleAudit::diagnostics() const
{
    std::vector<Diagnostic> out;
    for (GlobalClass cls : {GlobalClass::Dangerous, GlobalClass::Unknown, GlobalClass::Allowed}) {
        for (const GlobalUse& g : m_globals) {
            if (g.verdict.cls == cls)
                out.push_back(describe(g));
        }
    }
    out.insert(out.end(), m_findings.begin(), m_findings.end());
    if (m_dropped > 0) {
        out.push_back(Diagnostic{QStringLiteral("PickleLimit"),
                                 Severity::Warning,
                                 QStringLiteral("%1 more findings were not kept").arg(m_dropped),
                                 {},
                                 {}});
    }
    return out;
}

std::vector<FindingKind> PickleAudit::kinds() const
{
    std::vector<FindingKind> out;
    for (GlobalClass cls : {GlobalClass::Dangerous, GlobalClass::Unknown, GlobalClass::Allowed}) {
        for (const GlobalUse& g : m_globals) {
            if (g.verdict.cls == cls)
                out.push_back(cls == GlobalClass::Dangerous ? FindingKind::Code : FindingKind::Note);
        }
    }
    out.insert(out.end(), m_kinds.begin(), m_kinds.end());
    if (m_dropped > 0)
        out.push_back(FindingKind::Note);
    return out;
}

bool PickleAudit::runsCode() const
{
    for (const GlobalUse& g : m_globals) {
        if (g.verdict.cls == GlobalClass::Dangerous)
            return true;
    }
    for (FindingKind k : m_kinds) {
        if (k == FindingKind::Code)
            return true;
    }
    return false;
}

bool PickleAudit::hasStructural() const
{
    for (FindingKind k : m_kinds) {
        if (k == FindingKind::Structure)
            return true;
    }
    return false;
}

QString PickleAudit::firstCodeReason() const
{
    for (const GlobalUse& g : m_globals) {
        if (g.verdict.cls == GlobalClass::Dangerous)
            return describe(g).message;
    }
    for (std::size_t i = 0; i < m_findings.size(); ++i) {
        if (m_kinds[i] == FindingKind::Code)
            return m_findings[i].message;
    }
    return {};
}

QString PickleAudit::firstStructuralReason() const
{
    for (std::size_t i = 0; i < m_findings.size(); ++i) {
        if (m_kinds[i] == FindingKind::Structure)
            return m_findings[i].message;
    }
    return {};
}

} // namespace ts::pickle
