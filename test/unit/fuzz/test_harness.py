"""The harness and its command line: counts per target, and any case rerun alone."""

from __future__ import annotations

from qdialect.fuzz import __main__ as cli
from qdialect.fuzz.harness import case_random, fuzz
from qdialect.fuzz.targets import TARGETS


def test_a_case_depends_only_on_seed_target_and_index(tmp_path) -> None:
    target = TARGETS["qasm"]
    inputs = []
    for run in ("a", "b"):
        work = tmp_path / run
        work.mkdir()
        case_random(3, "qasm", 6)  # drawing other cases first changes nothing
        target.make(case_random(3, "qasm", 7), work)
        inputs.append((work / "program.s").read_bytes())
    other = tmp_path / "other"
    other.mkdir()
    target.make(case_random(3, "qasm", 8), other)
    assert inputs[0] == inputs[1] != (other / "program.s").read_bytes()


def test_a_run_counts_every_case(tmp_path) -> None:
    report = fuzz(TARGETS["qasm"], range(12), seed=3, jobs=2)
    assert report.cases == 12 and not report.findings
    assert set(report.counts) <= {"ok", "rejected"}


def test_the_command_line_reports_counts_and_reruns_one_case(tmp_path, capsys) -> None:
    assert cli.main(["--target", "qasm-disassemble", "--cases", "6", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("qasm-disassemble") and "6 cases" in out
    assert (
        cli.main(["--target", "qasm", "--seed", "1", "--case", "4", "--save", str(tmp_path)]) == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("qasm ") and "\n-> " in out
    assert (tmp_path / "program.s").is_file()
