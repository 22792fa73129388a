#!/usr/bin/env bash
# Installs every Debian 12 package Tensorscope needs to build, test and package.
# Idempotent: when everything is already there it prints nothing and exits 0.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libqt6svg6 qt6-qpa-plugins
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n
  libqcustomplot-dev libsimdjson-dev libhwy-dev zlib1g-dev libeigen3-dev libxxhash-dev libssl-dev
  libgl-dev libxcb1-dev
  xvfb xauth x11-utils
  desktop-file-utils shared-mime-info appstream xdg-utils libxml2-utils libfile-mimeinfo-perl librsvg2-bin
  python3 python3-numpy
  nginx openssl
  clang libclang-rt-14-dev clang-format
  file dpkg-dev fakeroot lintian devscripts
  groff-base man-db zsh fish
  fonts-dejavu-core
  chromium
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  SUDO=sudo
else
  SUDO=
fi
echo "installer: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
