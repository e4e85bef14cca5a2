#!/usr/bin/env bash
# Usage: compare-names-with-upstream.sh FILE...
# For each file, print it with upstream MLIR (iree-opt) and with `qopt --upstream-names`,
# normalize only the module/return/call spellings and blank lines (Inputs/spellings.sed;
# SSA value names are compared as printed), and fail on the first difference.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
for f in "$@"; do
  diff <(iree-opt "$f" | sed -E -f "$here/spellings.sed") \
       <(qopt --upstream-names "$f" | sed -E -f "$here/spellings.sed") \
    || { echo "qopt --upstream-names and upstream name $f's values differently" >&2; exit 1; }
done
