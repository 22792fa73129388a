#include "report/Sha256.h"

#ifdef TS_HAVE_OPENSSL
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#else
#include <QCryptographicHash>
#endif

namespace ts {

#ifdef TS_HAVE_OPENSSL
struct Sha256::State {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~State() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : m_state(std::make_unique<State>())
{
    EVP_DigestInit_ex(m_state->ctx, EVP_sha256(), nullptr);
}

void Sha256::add(std::span<const std::byte> bytes)
{
    EVP_DigestUpdate(m_state->ctx, bytes.data(), bytes.size());
}

QString Sha256::hex()
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_state->ctx, digest, &length);
    return QString::fromLatin1(
        QByteArray(reinterpret_cast<const char*>(digest), static_cast<int>(length)).toHex());
}

QString Sha256::backend()
{
    return QString::fromLatin1(OPENSSL_VERSION_TEXT).section(QLatin1Char(' '), 0, 1);
}
#else
struct Sha256::State {
    QCryptographicHash hash{QCryptographicHash::Sha256};
};

Sha256::Sha256() : m_state(std::make_unique<State>()) {}

void Sha256::add(std::span<const std::byte> bytes)
{
    m_state->hash.addData(
        QByteArrayView(reinterpret_cast<const char*>(bytes.data()), static_cast<qsizetype>(bytes.size())));
}

QString Sha256::hex()
{
    return QString::fromLatin1(m_state->hash.result().toHex());
}

QString Sha256::backend()
{
    return QStringLiteral("QCryptographicHash");
}
#endif

Sha256::~Sha256() = default;

} // namespace ts
