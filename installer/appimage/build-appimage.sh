#!/usr/bin/env bash
# Builds Tensorscope-<version>-x86_64.AppImage with linuxdeploy and linuxdeploy-plugin-qt.
#   installer/appimage/build-appimage.sh [build-dir]        (default: build/appimage)
# Downloads the two linuxdeploy AppImages into <build-dir>/tools unless LINUXDEPLOY_DIR points at them.
# The AppImage runs on distributions whose glibc is at least the build machine's: build on the oldest
# distribution you want to support.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${1:-$root/build/appimage}")
tools=${LINUXDEPLOY_DIR:-$build/tools}
appdir=$build/AppDir

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr \
      -DTENSORSCOPE_BUILD_TESTS=OFF
cmake --build "$build"
rm -rf "$appdir"
DESTDIR=$appdir cmake --install "$build" --strip

mkdir -p "$tools"
for tool in linuxdeploy linuxdeploy-plugin-qt; do
  file=$tools/$tool-x86_64.AppImage
  if [ ! -x "$file" ]; then
    curl -fL -o "$file" "https://github.com/linuxdeploy/$tool/releases/download/continuous/$tool-x86_64.AppImage"
    chmod +x "$file"
  fi
done

export QMAKE=${QMAKE:-$(command -v qmake6 || echo /usr/lib/qt6/bin/qmake)}
# The SVG icon engine is loaded at run time, so the plugin cannot see it in the link map.
export EXTRA_QT_MODULES="svg;"
if [ -e "$("$QMAKE" -query QT_INSTALL_PLUGINS)/platforms/libqwayland-generic.so" ]; then
  export EXTRA_PLATFORM_PLUGINS="libqwayland-generic.so;"
fi
export APPIMAGE_EXTRACT_AND_RUN=1   # no FUSE needed (containers, CI)
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
export LINUXDEPLOY_OUTPUT_VERSION=$version

# The desktop entry, icons and both binaries are already in the AppDir from `cmake --install`;
# linuxdeploy picks them up and bundles the libraries every ELF file there needs.
cd "$build"
"$tools/linuxdeploy-x86_64.AppImage" --appdir "$appdir" --plugin qt --output appimage
ls -l "$build"/Tensorscope-*.AppImage
