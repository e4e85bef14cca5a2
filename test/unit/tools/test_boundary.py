"""Every tool shares one error boundary: exit 1 for the user's errors (arguments too),
one line and exit 2 for a bug, the traceback only with QDIALECT_DEBUG set."""

from __future__ import annotations

import importlib

import pytest

from qdialect.tools.boundary import (
    EXIT_INTERNAL_ERROR,
    EXIT_USER_ERROR,
    UserError,
    run_tool,
)

TOOLS = ("qopt", "qrun", "qimport", "qasm", "qsim")


def tool_main(name: str):
    return importlib.import_module(f"qdialect.tools.{name}").main


@pytest.mark.parametrize("name", TOOLS)
def test_an_unknown_option_is_a_user_error(name, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        tool_main(name)(["--no-such-option", "x"])
    assert exit_.value.code == EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert f"{name}: error: unrecognized arguments: --no-such-option" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("name", TOOLS)
def test_help_states_the_exit_statuses(name, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        tool_main(name)(["--help"])
    assert exit_.value.code == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "exit status: 0 success; 1 user error" in out
    assert "2 internal error" in out


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("qopt", ["{missing}"]),
        ("qrun", ["{missing}"]),
        ("qimport", ["{missing}"]),
        ("qasm", ["{missing}", "-o", "{out}"]),
        ("qsim", ["{missing}"]),
    ],
)
def test_a_missing_input_file_is_one_error_line(name, argv, tmp_path, capsys) -> None:
    missing = tmp_path / "missing.bin"
    args = [a.format(missing=missing, out=tmp_path / "out") for a in argv]
    assert tool_main(name)(args) == EXIT_USER_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err and "missing.bin" in err


def _crash() -> int:
    raise ZeroDivisionError("a bug\nsecond line")


def test_a_bug_is_one_line_with_status_2(capsys, monkeypatch) -> None:
    monkeypatch.delenv("QDIALECT_DEBUG", raising=False)
    assert run_tool("qtool", _crash) == EXIT_INTERNAL_ERROR
    err = capsys.readouterr().err
    assert err == (
        "qtool: internal error: ZeroDivisionError: a bug (set QDIALECT_DEBUG=1 for a traceback)\n"
    )


def test_debug_variable_shows_the_traceback(monkeypatch) -> None:
    monkeypatch.setenv("QDIALECT_DEBUG", "1")
    with pytest.raises(ZeroDivisionError):
        run_tool("qtool", _crash)


def test_running_out_of_memory_is_a_bug_not_a_user_error(capsys, monkeypatch) -> None:
    """Inputs have stated limits checked up front; a MemoryError means one is missing."""
    monkeypatch.delenv("QDIALECT_DEBUG", raising=False)

    def exhaust() -> int:
        raise MemoryError

    assert run_tool("qtool", exhaust) == EXIT_INTERNAL_ERROR
    assert "internal error: MemoryError" in capsys.readouterr().err


class BadModel(Exception):
    pass


def test_declared_user_errors_exit_1(capsys) -> None:
    def reject() -> int:
        raise BadModel("tensor 'x' has no shape")

    assert run_tool("qtool", reject, (BadModel,)) == EXIT_USER_ERROR
    assert capsys.readouterr().err == "qtool: error: tensor 'x' has no shape\n"

    def refuse() -> int:
        raise UserError("nope")

    assert run_tool("qtool", refuse) == EXIT_USER_ERROR
    assert capsys.readouterr().err == "qtool: error: nope\n"


def test_an_unwritable_output_is_a_user_error(tmp_path, capsys) -> None:
    def write() -> int:
        (tmp_path / "no-such-dir" / "out.txt").write_text("x")
        return 0

    assert run_tool("qtool", write) == EXIT_USER_ERROR
    assert "qtool: error: " in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "argv", "message"),
    [
        ("qsim", ["x.npub", "--orders", "0"], "expected a count in [1, 1000], got 0"),
        ("qsim", ["x.npub", "--orders", "1000000000"], "expected a count in [1, 1000]"),
        ("qsim", ["x.npub", "--random-inputs", "-1"], "expected a non-negative integer"),
        ("qrun", ["x.mlir", "--random-inputs", "-1"], "expected a non-negative integer"),
    ],
)
def test_out_of_range_argument_values_are_user_errors(name, argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        tool_main(name)(argv)
    assert exit_.value.code == EXIT_USER_ERROR
    assert message in capsys.readouterr().err
