#!/usr/bin/env bash
# Renders the SVG icon sources into the hicolor PNG tree committed next to them, so that building and
# packaging never need an SVG renderer. Run it after editing an SVG, then look at the results.
# Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"

app=io.github.tensorscope.Tensorscope
mime=${app}-application-x-safetensors
sizes=(16 22 24 32 48 64 128 256 512)

render() { # <svg> <size> <out.png>
  mkdir -p "$(dirname "$3")"
  rsvg-convert --width "$2" --height "$2" --keep-aspect-ratio "$1" --output "$3"
}

for size in "${sizes[@]}"; do
  dir=hicolor/${size}x${size}
  # 16 px has hand-tuned sources; every other size scales the master.
  src=.
  [ "$size" -eq 16 ] && src=16
  render "$src/$app.svg" "$size" "$dir/apps/$app.png"
  render "$src/$mime.svg" "$size" "$dir/mimetypes/$mime.png"
done
# Scalable copies are the masters themselves (installed to hicolor/scalable by installer/Packaging.cmake).
# Windows (.ico) and macOS (.icns) icons are packed from the PNGs just rendered.
python3 pack-icons.py
echo "rendered ${#sizes[@]} sizes into $(pwd)/hicolor, packed .ico and .icns"
