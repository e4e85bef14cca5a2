# ruff: noqa: F821  (lit injects `config`)
# lit configuration for qdialect's FileCheck regression suite.
# Run: lit -v test/filecheck
import os
import shutil

import lit.formats

config.name = "qdialect"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]

# Tools come from the active environment (the project installed with its test extra).
config.environment["PATH"] = os.environ.get("PATH", "")
for var in ("HOME", "PYTHONPATH", "VIRTUAL_ENV", "LANG", "LC_ALL"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# %roundtrip: print, re-parse, print again; a fixed point must come out identical.
config.substitutions.append(("%roundtrip", "qopt %s | qopt"))

if shutil.which("iree-opt"):
    config.available_features.add("iree-opt")

# The `filecheck` package (a Python port of LLVM's FileCheck) installs `filecheck`.
config.substitutions.append((r"\bFileCheck\b", "filecheck"))
