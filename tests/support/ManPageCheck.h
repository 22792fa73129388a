#pragma once

#include <QString>

namespace ts::test {

// The checks a man page must pass before it ships: groff's own warnings (-ww) and lintian's
// (man --warnings on the gzipped page, as Debian's lintian runs it). Returns what they said; empty
// when clean. A missing groff or man is a failure too (installer/install-deps.sh installs them).
QString manPageWarnings(const QString& page, const QString& gzipped);

} // namespace ts::test
