#!/usr/bin/env bash
# Usage: compare-with-upstream.sh FILE...
# For each file, print it with upstream MLIR (iree-opt) and with qopt, normalize
# both (Inputs/normalize.sed), and fail on the first difference.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for f in "$@"; do
  diff <(iree-opt "$f" | sed -E -f "$here/normalize.sed") \
       <(qopt "$f" | sed -E -f "$here/normalize.sed") \
    || { echo "qopt and upstream print $f differently" >&2; exit 1; }
done
