#!/usr/bin/env bash
# README command (1): install dependencies, build, and open the bundled sample model in the GUI.
# Without a display it starts a virtual one (Xvfb) and saves a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash installer/install-deps.sh
build=${TENSORSCOPE_BUILD_DIR:-build/main}
cmake -S . -B "$build" -G Ninja >/dev/null
# Only the two programs: the tests, benchmarks and their fixtures are command (2)'s to build.
cmake --build "$build" -j"$(nproc)" --target tensorscope tensorscope-cli
sample=resources/samples/face_landmark_68_f32.safetensors
"$build/bin/tensorscope-cli" info "$sample"
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$build/bin/tensorscope" "$sample"
fi
echo "No display: opening the sample under Xvfb and saving $build/screenshot.png"
exec xvfb-run -a -s "-screen 0 1400x900x24" "$build/bin/tensorscope" --screenshot "$build/screenshot.png" "$sample"
