"""`python -m qdialect.fuzz`: mutate inputs for every tool and report the outcomes.

    python -m qdialect.fuzz --cases 3000                  # the pre-release run
    python -m qdialect.fuzz --target qopt --seed 0 --case 17   # rerun one case

Exit status 1 when any case ended in a bug (a traceback, an internal error, a
MemoryError, a hang or a crash); each is listed with the command that reproduces it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from qdialect.fuzz.child import run_in_child
from qdialect.fuzz.harness import Report, case_random, fuzz
from qdialect.fuzz.targets import TARGETS, SeedsUnavailable, add_corpus, prepare
from qdialect.tools.boundary import ToolArgumentParser, run_tool


def _parser() -> ToolArgumentParser:
    p = ToolArgumentParser(
        prog="python -m qdialect.fuzz", description=(__doc__ or "").splitlines()[0]
    )
    p.add_argument(
        "--target", action="append", choices=sorted(TARGETS), help="a target (default: all)"
    )
    p.add_argument("--cases", type=int, default=200, help="cases per target (default 200)")
    p.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    p.add_argument("--case", type=int, help="run only case N of each --target, and show it")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per case (default 20)")
    p.add_argument("--memory-mb", type=int, default=2048, help="memory cap per case (MiB)")
    p.add_argument("--jobs", type=int, default=2, help="cases run at once (default 2)")
    p.add_argument("--save", type=Path, help="copy each buggy case's inputs under this folder")
    p.add_argument("--corpus", type=Path, action="append", default=[], help="more seed files")
    return p


def _one_case(name: str, args) -> int:
    target = TARGETS[name]
    prepare(target)
    # The case's input is kept under --save (to read or attach to a report), else in a
    # fresh temporary folder, never in the current directory.
    work = args.save or Path(tempfile.mkdtemp(prefix=f"qfuzz-{name}-"))
    work.mkdir(parents=True, exist_ok=True)
    case = target.make(case_random(args.seed, name, args.case), work)
    outcome = run_in_child(case, args.timeout, args.memory_mb)
    print(
        f"{case.describe()}\n-> {outcome.kind} (status {outcome.status}, {outcome.seconds:.2f} s)"
    )
    print(outcome.stderr, end="")
    print(f"(input kept in {work})")
    return 1 if outcome.is_bug else 0


def _run(args) -> int:
    add_corpus(args.corpus)
    names = args.target or sorted(TARGETS)
    if args.case is not None:
        return max(_one_case(name, args) for name in names)
    reports: list[Report] = []
    for name in names:
        try:
            report = fuzz(
                TARGETS[name], range(args.cases), args.seed, args.timeout, args.memory_mb,
                args.jobs, args.save,
            )  # fmt: skip
        except SeedsUnavailable as err:
            print(f"{name:18} skipped: {err}")
            continue
        print(report.row(), flush=True)
        reports.append(report)
    bugs = [(r.target, f) for r in reports for f in r.findings]
    for name, finding in bugs:
        last = finding.outcome.stderr.strip().splitlines()[-1:] or [""]
        print(
            f"\n{finding.outcome.kind}: {finding.case.describe()}\n  {last[0]}\n"
            f"  rerun: python -m qdialect.fuzz --target {name} --seed {args.seed} --case {finding.index}"
        )
    return 1 if bugs else 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return run_tool("qfuzz", lambda: _run(args))


if __name__ == "__main__":
    sys.exit(main())
