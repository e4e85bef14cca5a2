"""How much of upstream's own test files qopt and qrun accept, chunk by chunk.

Reads upstream MLIR / StableHLO lit files (not shipped with the project; point it
at a checkout, e.g. StableHLO's `stablehlo/tests` and `stablehlo/testdata`, MLIR's
`mlir/test/Dialect/Quant` and `mlir/test/Dialect/Tosa`) and runs each `// -----`
chunk the way the file's RUN line asks:

- `--interpret` files: `qrun` on the chunk; it passes when every `check.*` op holds;
- `-verify-diagnostics` files: `qopt --verify-diagnostics`; it passes when the
  diagnostics produced are exactly the expected ones (text, severity and line);
- other files: `qopt` parses, verifies and prints the chunk (running the RUN line's
  passes); with `--filecheck`, files whose RUN line is a plain round trip (`*-opt %s |
  FileCheck %s`, with or without `-split-input-file`) or runs passes qopt has are also
  checked with their own CHECK lines against qopt's output, whole file at once.

Ops of MLIR's `test` dialect (`"test.custom_op"(...)`), which mlir-opt registers and
qopt cannot, run as unregistered ops (`--allow-unregistered-dialect`): upstream's pass
tests use them only to produce and consume values.

Each chunk runs in a forked child with a timeout, so a hang or a crash is counted
rather than stopping the run. Prints per-file counts (pass / fail / bug = exit 2,
traceback, hang or crash), the totals, and the most frequent first error lines, which
is the to-do list. The passes on the first RUN line (`-tosa-attach-target="..."
-tosa-validate`, `--pass-pipeline=...`) are applied as qopt's pipeline when qopt has
them all; when it lacks one (marked `passes not run` in the listing), the figure
measures parsing, printing and the op verifiers only.

With `--oracle iree-opt` (current upstream MLIR with StableHLO and TOSA), each chunk
also runs through that tool with the RUN line's flags; the figures are then also given
over the chunks upstream itself passes today, so files and chunks gone stale upstream
(an op renamed, a message reworded) do not count against qopt.

    python bench/upstream_compat.py PATH... [--json out.json] [--top 25] [--filecheck]
                                            [--oracle iree-opt]
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from qdialect.fuzz.child import run_in_child
from qdialect.tools import qopt, qrun

_SPLIT = re.compile(r"^// -----\s*$", re.MULTILINE)
_ROUNDTRIP = re.compile(
    r"^(stablehlo|mlir)-opt\s+(-?-split-input-file\s+|-?-allow-unregistered-dialect\s+)*%s"
    r"(\s+-?-split-input-file|\s+-?-allow-unregistered-dialect)*\s*\|\s*FileCheck\s+%s\s*$"
)


@dataclass
class FileResult:
    path: str
    mode: str
    chunks: int = 0
    passed: int = 0
    failed: int = 0
    bugs: int = 0
    filecheck: str = ""  # "", "pass" or "fail"
    passes: str = "none"  # the RUN line's passes: "none", "run" or "not run"
    errors: list[str] = field(default_factory=list)
    oracle: str = ""  # "", "ran", "parse only" (the oracle lacks a pass), or why not
    oracle_accepted: int = 0  # chunks the oracle (current upstream) passes
    oracle_both: int = 0  # of those, chunks qopt passes too
    oracle_only: list[str] = field(default_factory=list)  # "chunk N: qopt's first error"


def run_lines(text: str) -> list[str]:
    lines = [m.group(1).strip() for m in re.finditer(r"^//\s*RUN:\s*(.*)$", text, re.MULTILINE)]
    joined, current = [], ""
    for line in lines:  # continuation lines end with a backslash
        current += line.rstrip("\\") + " "
        if not line.endswith("\\"):
            joined.append(current.strip())
            current = ""
    return joined or [""]


_PASSES_THEN_FILECHECK = re.compile(r"^(stablehlo|mlir)-opt\s.*%s.*\|\s*FileCheck\s+%s\s*$")
_TEST_DIALECT_OP = re.compile(r'"test\.[\w.]+"\(')
_TOOL_FLAGS = {"split-input-file", "verify-diagnostics", "allow-unregistered-dialect"}


def pipeline_of(run: str) -> str | None:
    """The passes an `*-opt` RUN line applies, as a qopt pipeline ("" for none), or None
    when it names a pass (or an option form) qopt does not have."""
    from qdialect.transforms import get_all_passes

    try:
        tokens = shlex.split(run.replace("%s", "INPUT"))
    except ValueError:
        return None
    if not tokens or not tokens[0].endswith("-opt"):
        return ""
    known = get_all_passes()
    passes: list[str] = []
    for token in tokens[1:]:
        if token == "|":
            break
        if not token.startswith("-"):
            continue
        name, _, options = token.lstrip("-").partition("=")
        if name in _TOOL_FLAGS:
            continue
        if name == "pass-pipeline":
            return options
        if name not in known:
            return None
        passes.append(f"{name}{{{options}}}" if options else name)
    return f"builtin.module({','.join(passes)})" if passes else ""


def mode_of(runs: list[str]) -> str:
    first = runs[0]
    if "--interpret" in first or "-interpret " in first:
        return "interpret"
    if "verify-diagnostics" in first:
        return "diagnostics"
    return "roundtrip"


def first_error(stderr: str) -> str:
    for line in stderr.splitlines():
        if "error:" in line or "internal error" in line or "Traceback" in line:
            text = line.split("error:", 1)[-1].strip()
            text = re.sub(r"%[\w#]+", "%v", text)
            text = re.sub(r"\d+", "N", text)
            return text[:140]
    lines = stderr.strip().splitlines()
    return (lines[-1] if lines else "(no message)")[:140]


_ORACLE_CANNOT = re.compile(
    r"Unknown command line argument|unknown pass|no such option|"
    r"for the --pass-pipeline option|failed to add|Unknown pass",
    re.IGNORECASE,
)


def oracle_flags(run: str, unregistered: bool) -> list[str] | None:
    """The RUN line's `*-opt` flags for the oracle tool, one chunk at a time (no
    `-split-input-file`); None when the line is not an `*-opt` line."""
    try:
        tokens = shlex.split(run)
    except ValueError:
        return None
    if not tokens or not tokens[0].endswith("-opt"):
        return None
    flags = []
    for token in tokens[1:]:
        if token == "|":
            break
        if token == "%s" or token.lstrip("-") == "split-input-file":
            continue
        flags.append(token)
    if unregistered and "--allow-unregistered-dialect" not in flags:
        flags.append("--allow-unregistered-dialect")
    return flags


_PARSE_ONLY = "--mlir-very-unsafe-disable-verifier-on-parsing"


def run_oracle(tool: str, flags: list[str], chunk: Path, timeout: float) -> str:
    """ "ok", "rejected" or "cannot" (the tool lacks a pass or flag the RUN line uses)."""
    try:
        done = subprocess.run(
            [tool, *flags, str(chunk)],
            capture_output=True,
            encoding="utf-8",
            errors="replace",  # bytecode output is not text
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return "rejected"
    if done.returncode == 0:
        return "ok"
    return "cannot" if _ORACLE_CANNOT.search(done.stderr) else "rejected"


def check_file(
    path: Path, timeout: float, filecheck: bool, oracle: str | None = None
) -> FileResult:
    text = path.read_text(errors="replace")
    runs = run_lines(text)
    mode = mode_of(runs)
    result = FileResult(str(path), mode)
    # mlir-opt registers MLIR's `test` dialect; qopt cannot, so a file using its ops
    # ("test.custom_op"(...)) runs them as unregistered ops - they only carry values.
    test_dialect = _TEST_DIALECT_OP.search(text) is not None
    unregistered = "allow-unregistered-dialect" in runs[0] or test_dialect
    extra = ["--allow-unregistered-dialect"] if unregistered else []
    pipeline = pipeline_of(runs[0]) if mode != "interpret" else ""
    result.passes = "none" if not pipeline else ("not run" if pipeline is None else "run")
    if pipeline:
        extra += ["--pass-pipeline", pipeline]
    chunks = _SPLIT.split(text) if "split-input-file" in runs[0] else [text]
    flags = oracle_flags(runs[0], unregistered) if oracle and mode != "interpret" else None
    if oracle:
        result.oracle = "ran" if flags is not None else "not an *-opt RUN line"
    with tempfile.TemporaryDirectory() as tmp:
        for index, chunk in enumerate(chunks):
            if not chunk.strip() or not re.sub(r"//[^\n]*", "", chunk).strip():
                continue
            chunk_path = Path(tmp) / f"chunk{index}.mlir"
            chunk_path.write_text(chunk)
            if mode == "interpret":
                argv, main = [str(chunk_path)], qrun.main
            elif mode == "diagnostics":
                argv, main = ["--verify-diagnostics", *extra, str(chunk_path)], qopt.main
            else:
                argv, main = [*extra, str(chunk_path)], qopt.main
            outcome = run_in_child(lambda a=argv, m=main: m(a), timeout=timeout)
            result.chunks += 1
            if oracle and flags is not None and result.oracle in ("ran", "parse only"):
                verdict = run_oracle(oracle, flags, chunk_path, timeout)
                if verdict == "cannot":
                    # The tool lacks a pass of the RUN line: from here on it only parses
                    # the chunks (unverified), so a chunk in stale syntax is left out.
                    result.oracle = "parse only"
                    flags = [
                        _PARSE_ONLY,
                        *(["--allow-unregistered-dialect"] if unregistered else []),
                    ]
                    verdict = run_oracle(oracle, flags, chunk_path, timeout)
                if verdict == "ok":
                    result.oracle_accepted += 1
                    result.oracle_both += outcome.kind == "ok"
                    if outcome.kind != "ok":
                        result.oracle_only.append(f"chunk {index}: {first_error(outcome.stderr)}")
            if outcome.kind == "ok":
                result.passed += 1
            elif outcome.kind == "rejected":
                result.failed += 1
                result.errors.append(first_error(outcome.stderr))
            else:
                result.bugs += 1
                result.errors.append(f"[{outcome.kind}] {first_error(outcome.stderr)}")
        checkable = _ROUNDTRIP.match(runs[0]) or (
            result.passes == "run" and _PASSES_THEN_FILECHECK.match(runs[0])
        )
        if filecheck and mode == "roundtrip" and checkable:
            result.filecheck = _filecheck(path, runs[0], extra, Path(tmp))
    return result


def _filecheck(path: Path, run: str, extra: list[str], tmp: Path) -> str:
    tool = shutil.which("filecheck") or shutil.which("FileCheck")
    if tool is None:
        return ""
    out = tmp / "out.mlir"
    argv = ["--upstream-names", *extra, "-o", str(out), str(path)]  # names as mlir-opt's
    if "split-input-file" in run:
        argv.insert(0, "--split-input-file")
    outcome = run_in_child(lambda: qopt.main(argv), timeout=60)
    if outcome.kind != "ok":
        return "fail"
    with out.open() as stdin:
        done = subprocess.run([tool, str(path)], stdin=stdin, capture_output=True)
    return "pass" if done.returncode == 0 else "fail"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--json", type=Path, help="write per-file results here")
    parser.add_argument("--top", type=int, default=25, help="how many error lines to list")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per chunk")
    parser.add_argument("--filecheck", action="store_true", help="FileCheck round-trip files")
    parser.add_argument("--quiet", action="store_true", help="totals and errors only")
    parser.add_argument(
        "--oracle",
        help="an upstream tool (e.g. iree-opt) run on every chunk with the RUN line's flags: "
        "the figures are then also given over the chunks current upstream itself passes, "
        "which leaves out stale files and chunks",
    )
    args = parser.parse_args()
    files = sorted(
        f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*.mlir")) if f.is_file()
    )
    results = []
    for path in files:
        result = check_file(path, args.timeout, args.filecheck, args.oracle)
        results.append(result)
        if not args.quiet:
            fc = f"  filecheck {result.filecheck}" if result.filecheck else ""
            fc += "  (passes not run)" if result.passes == "not run" else ""
            if result.oracle == "ran":
                fc += f"  upstream passes {result.oracle_accepted}, qopt {result.oracle_both} of those"
            elif result.oracle == "parse only":
                fc += (
                    f"  upstream parses {result.oracle_accepted} (lacks the RUN line's passes), "
                    f"qopt passes {result.oracle_both} of those"
                )
            elif result.oracle:
                fc += f"  ({result.oracle})"
            print(
                f"{result.passed:4d}/{result.chunks:<4d} bugs {result.bugs:<3d} "
                f"{result.mode:<11s} {path}{fc}",
                flush=True,
            )
    total = sum(r.chunks for r in results)
    passed = sum(r.passed for r in results)
    bugs = sum(r.bugs for r in results)
    whole = sum(1 for r in results if r.chunks and r.passed == r.chunks)
    print(
        f"\nfiles {len(results)} (all chunks pass: {whole}); chunks {total}, passed {passed}",
        end="",
    )
    print(f" ({100 * passed / max(total, 1):.1f}%), bugs {bugs}")
    if args.oracle:
        ran = [r for r in results if r.oracle in ("ran", "parse only")]
        accepted = sum(r.oracle_accepted for r in ran)
        both = sum(r.oracle_both for r in ran)
        print(
            f"{Path(args.oracle).name} ran on {len(ran)} files (on "
            f"{sum(r.oracle == 'parse only' for r in ran)} parsing only): upstream passes {accepted} of "
            f"their {sum(r.chunks for r in ran)} chunks; qopt passes {both} of those "
            f"({100 * both / max(accepted, 1):.1f}%)"
        )
    fc = Counter(r.filecheck for r in results if r.filecheck)
    if fc:
        print(f"filecheck: {fc['pass']} pass, {fc['fail']} fail")
    counts = Counter(e for r in results for e in r.errors)
    for message, count in counts.most_common(args.top):
        print(f"{count:5d}  {message}")
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
