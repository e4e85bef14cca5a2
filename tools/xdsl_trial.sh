#!/usr/bin/env bash
# Rerun the xDSL upgrade trial (docs/xdsl-upgrade.md): build a venv with the
# project installed, optionally swap in another xDSL, then run the FileCheck
# suite and the unit tests and keep the logs.
#
#   tools/xdsl_trial.sh VENV_DIR [XDSL_SPEC]
#
# XDSL_SPEC is a pip requirement ("xdsl==0.76.0") or a path to an xDSL source
# tree; leave it out to test the version pinned in pyproject.toml.
# Logs go to VENV_DIR/trial-{lit,pytest}.log; the last lines of each are
# printed. Runs from the repository root. Takes ~5-10 min on 2 cores.
set -u
cd "$(dirname "$0")/.."
venv=$1
spec=${2:-}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q -e '.[test]' || exit 1
if [ -n "$spec" ]; then
  # --no-deps: the pin in pyproject.toml would otherwise refuse the swap.
  "$venv/bin/pip" install -q -U --no-deps "$spec" || exit 1
  # Bring in whatever the new xDSL itself requires (pin conflict is expected).
  "$venv/bin/pip" install -q "$spec" 2>&1 | grep -v "qdialect .* requires xdsl==" || true
fi
"$venv/bin/python" -c 'import xdsl, importlib.metadata as m; print("xdsl", m.version("xdsl"))'
export PATH="$PWD/$venv/bin:$PATH"
lit -v test/filecheck > "$venv/trial-lit.log" 2>&1
echo "lit exit $?"; tail -n 6 "$venv/trial-lit.log"
pytest -q -x --maxfail=50 -p no:cacheprovider test/unit \
  --ignore=test/unit/importers/test_tflite_keras.py --ignore=test/unit/models/test_keras_zoo.py \
  --ignore=test/unit/models/test_onnx_zoo.py --ignore=test/unit/importers/test_onnx_import_zoo.py \
  > "$venv/trial-pytest.log" 2>&1
echo "pytest exit $?"; tail -n 3 "$venv/trial-pytest.log"
