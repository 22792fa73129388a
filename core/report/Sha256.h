#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <memory>
#include <span>

namespace ts {

// Incremental SHA-256. OpenSSL's libcrypto when the build found it (its SHA-NI and AVX2 code
// hashes 4-8x faster than the portable C Qt 6.4's QCryptographicHash uses: tests/bench/report/
// RESULTS.md), QCryptographicHash otherwise; both give the same digests.
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void add(std::span<const std::byte> bytes);
    // The digest as 64 lower-case hex digits; the object is spent afterwards.
    QString hex();
    // "OpenSSL 3.0.19" or "QCryptographicHash", for the report and the benchmark.
    static QString backend();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace ts
