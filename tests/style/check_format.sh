#!/bin/sh
# Fails when a C++ file of the project drifts from .clang-format (clang-format 14, Debian 12's).
# Run from anywhere: it checks the files git tracks, so build trees and generated code are left out.
# To fix: git ls-files '*.cpp' '*.h' | xargs clang-format -i
set -eu
cd "$(dirname "$0")/../.."
command -v clang-format >/dev/null || { echo "check_format: clang-format is not installed (installer/install-deps.sh installs it)" >&2; exit 1; }
files=$(git ls-files '*.cpp' '*.h')
bad=0
for f in $files; do
  if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "check_format: $f differs from .clang-format" >&2
    bad=$((bad + 1))
  fi
done
if [ "$bad" -ne 0 ]; then
  echo "check_format: files drift from .clang-format: $bad; run: git ls-files '*.cpp' '*.h' | xargs clang-format -i" >&2
  exit 1
fi
echo "check_format: $(echo "$files" | wc -w) files follow .clang-format"
