"""The CI fuzz run: a few hundred seeded cases per tool, none of which may end in a
traceback, an internal error, a MemoryError, a hang or a crash.

The long run before a release is `python -m qdialect.fuzz --cases 3000`
(docs/hostile-input.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from qdialect.fuzz.harness import fuzz
from qdialect.fuzz.targets import TARGETS, SeedsUnavailable, add_corpus

ROOT = Path(__file__).resolve().parents[3]
CASES = {
    "qopt": 300,
    "qrun": 300,
    "qimport-onnx": 200,
    "qimport-tflite": 200,
    "qasm": 200,
    "qasm-disassemble": 150,
    "qsim": 300,
    "qrt": 150,
}
SEED = 20261201


@pytest.fixture(scope="module", autouse=True)
def corpus() -> None:
    add_corpus([ROOT / "examples", ROOT / "test" / "filecheck"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_case_ends_in_a_bug(name: str) -> None:
    try:
        report = fuzz(TARGETS[name], range(CASES[name]), SEED, timeout=20.0, memory_mb=2048)
    except SeedsUnavailable as err:
        pytest.skip(f"{name}: {err}")
    assert report.cases == CASES[name]
    found = "\n".join(
        f"{f.outcome.kind}: {f.case.describe()}: {f.outcome.stderr.strip()[-300:]}\n"
        f"  rerun: python -m qdialect.fuzz --target {name} --seed {SEED} --case {f.index}"
        for f in report.findings
    )
    assert not report.findings, f"{report.row()}\n{found}"
