#pragma once

#include "base/Diagnostic.h"
#include "pickle/GlobalPolicy.h"

#include <QHash>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace ts::pickle {

// Every global a checkpoint names, once per module + name.
struct GlobalUse {
    std::string module; // as written
    std::string name;
    GlobalVerdict verdict;
    std::uint64_t count = 0;
    std::uint64_t firstOffset = 0; // absolute byte offset in the file
    QString where;                 // the pickle it was first seen in: "data.pkl", "the main pickle"
    bool readByTorch = false;      // in a pickle torch.load runs (not only in bytes it skips)
};

// What a finding means for what may be done with the file.
enum class FindingKind : std::uint8_t {
    Code,      // the file would run code: a dangerous global, a TorchScript archive
    Structure, // torch and other readers may see different things, or bytes are missing
    Note,      // worth knowing, changes nothing (allowed or unknown globals, dtypes)
};

// The findings of reading one checkpoint, kept as they are made so that a file whose parsing
// stops half way still reports everything met before.
class PickleAudit {
public:
    void noteGlobal(const std::string& module, const std::string& name, const GlobalVerdict& verdict,
                    std::uint64_t offset, const QString& where, bool readByTorch, std::uint64_t count = 1);
    // A structural finding (FindingKind::Structure unless said otherwise).
    void add(const QString& code, Severity severity, const QString& message,
             std::optional<std::uint64_t> offset = std::nullopt, const QString& tensor = {},
             FindingKind kind = FindingKind::Structure);
    bool has(const QString& code) const;

    const std::vector<GlobalUse>& globals() const { return m_globals; }
    // Globals first (dangerous, unknown, allowed, each in order of first use), then the others
    // in the order they were found. At most kMaxFindings structural findings are kept.
    std::vector<Diagnostic> diagnostics() const;
    std::vector<FindingKind> kinds() const; // parallel to diagnostics()

    bool runsCode() const;           // any FindingKind::Code
    bool hasStructural() const;      // any FindingKind::Structure
    QString firstCodeReason() const; // the sentence of the first Code finding, or empty
    QString firstStructuralReason() const;
    std::size_t droppedFindings() const { return m_dropped; }

    static constexpr std::size_t kMaxFindings = 1000;

private:
    std::vector<GlobalUse> m_globals;
    QHash<QByteArray, std::size_t> m_globalIndex;
    std::vector<Diagnostic> m_findings;
    std::vector<FindingKind> m_kinds;
    std::size_t m_dropped = 0;
};

} // namespace ts::pickle
