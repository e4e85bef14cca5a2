"""Run many fuzz cases of a target, a few at a time, and count their outcomes.

Case `i` of target `t` under seed `s` is drawn from `random.Random(f"{s}:{t}:{i}")`,
so any case can be rerun alone (`python -m qdialect.fuzz --target t --seed s --case i`)
whatever the order, the job count or the number of cases around it.
"""

from __future__ import annotations

import random
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from qdialect.fuzz.child import KINDS, Outcome, Running
from qdialect.fuzz.targets import Case, Target, prepare


@dataclass
class Finding:
    index: int
    case: Case
    outcome: Outcome


@dataclass
class Report:
    target: str
    counts: Counter[str] = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def cases(self) -> int:
        return sum(self.counts.values())

    def row(self) -> str:
        kinds = "  ".join(f"{kind} {self.counts[kind]}" for kind in KINDS if self.counts[kind])
        return f"{self.target:18} {self.cases:6} cases  {kinds}  ({self.seconds:.0f} s)"


def case_random(seed: int, target: str, index: int) -> random.Random:
    return random.Random(f"{seed}:{target}:{index}")


def fuzz(
    target: Target,
    indices: range | list[int],
    seed: int = 0,
    timeout: float = 10.0,
    memory_mb: int = 2048,
    jobs: int = 2,
    save: Path | None = None,
) -> Report:
    """Run cases `indices` of `target`, `jobs` children at a time; bugs are kept in the
    report and, with `save`, their inputs copied to `save/<target>-<index>/`."""
    prepare(target)
    report = Report(target.name)
    start = time.monotonic()
    pending = list(indices)
    running: list[tuple[int, Case, Path, Running]] = []
    while pending or running:
        while pending and len(running) < jobs:
            index = pending.pop(0)
            work = Path(tempfile.mkdtemp(prefix=f"qfuzz-{target.name}-"))
            case = target.make(case_random(seed, target.name, index), work)
            running.append((index, case, work, Running(case, timeout, memory_mb)))
        still: list[tuple[int, Case, Path, Running]] = []
        for index, case, work, child in running:
            outcome = child.poll()
            if outcome is None:
                still.append((index, case, work, child))
                continue
            report.counts[outcome.kind] += 1
            if outcome.is_bug:
                report.findings.append(Finding(index, case, outcome))
                if save is not None:
                    shutil.copytree(work, save / f"{target.name}-{index}", dirs_exist_ok=True)
            shutil.rmtree(work, ignore_errors=True)
        running = still
        if running:
            time.sleep(0.005)
    report.seconds = time.monotonic() - start
    return report
