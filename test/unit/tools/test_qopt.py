"""qopt driver behaviour that lit cannot reach: pass failures, internal errors, anchors."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects.arith import AddiOp
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from qdialect.ir.errors import OpError
from qdialect.tools import qopt

SOURCE = """\
func.func @a(%x: i32) -> i32 {
  %y = arith.addi %x, %x : i32
  func.return %y : i32
}
func.func @b() {
  func.return
}
"""


@dataclass(frozen=True)
class RejectAddi(ModulePass):
    """Test pass: reports the first arith.addi as unsupported."""

    name = "reject-addi"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if isinstance(inner, AddiOp):
                raise OpError(inner, "'arith.addi' is not supported by reject-addi")


@dataclass(frozen=True)
class FailPass(ModulePass):
    name = "fail"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise PassFailedException("nothing to do here")


@dataclass(frozen=True)
class CrashPass(ModulePass):
    name = "crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise RuntimeError("bug")


@dataclass(frozen=True)
class CountFunctions(ModulePass):
    """Renames every function it sees so the test can tell how it ran."""

    name = "count-functions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = [f for f in op.ops if isinstance(f, FuncOp)]
        for f in funcs:
            f.sym_name = type(f.sym_name)(f"{f.sym_name.data}_seen_with_{len(funcs)}")


@pytest.fixture
def registry(monkeypatch):
    from qdialect import transforms

    passes = transforms.get_all_passes()
    for cls in (RejectAddi, FailPass, CrashPass, CountFunctions):
        passes[cls.name] = lambda cls=cls: cls
    monkeypatch.setattr(qopt, "get_all_passes", lambda: passes)
    return passes


def run(tmp_path, capsys, *args: str) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    path.write_text(SOURCE)
    code = qopt.main([str(path), *args])
    out, err = capsys.readouterr()
    return code, out, err.replace(str(path), "in.mlir")


def test_op_error_from_a_pass_is_located(tmp_path, capsys, registry) -> None:
    code, out, err = run(tmp_path, capsys, "-p", "reject-addi")
    assert code == 1 and out == ""
    assert err == "in.mlir:2:3: error: 'arith.addi' op is not supported by reject-addi\n"


def test_pass_failure_is_one_line(tmp_path, capsys, registry) -> None:
    code, _, err = run(tmp_path, capsys, "-p", "fail")
    assert code == 1
    assert err == "error: pass 'fail' failed: nothing to do here\n"


def test_internal_error_is_one_line_with_status_2(tmp_path, capsys, registry, monkeypatch) -> None:
    monkeypatch.delenv("QDIALECT_DEBUG", raising=False)
    code, _, err = run(tmp_path, capsys, "-p", "crash")
    assert code == 2
    assert err.count("\n") == 1 and "internal error: RuntimeError: bug" in err
    assert "Traceback" not in err


def test_func_anchor_runs_on_each_function_separately(tmp_path, capsys, registry) -> None:
    code, out, _ = run(
        tmp_path, capsys, "--pass-pipeline=builtin.module(func.func(count-functions))"
    )
    assert code == 0
    # Each function was seen alone, and the functions kept their order.
    assert out.index("@a_seen_with_1") < out.index("@b_seen_with_1")
    code, out, _ = run(tmp_path, capsys, "--pass-pipeline=builtin.module(count-functions)")
    assert "@a_seen_with_2" in out and "@b_seen_with_2" in out


def test_split_input_file_keeps_going_after_an_error(tmp_path, capsys) -> None:
    path = tmp_path / "split.mlir"
    path.write_text(
        "func.func private @bad(!quant.uniform<i4<-9:7>:f32, 0.1>)\n"
        "// -----\n"
        "func.func private @good(!quant.uniform<i8:f32, 0.1:3>)\n"
    )
    code = qopt.main([str(path), "--split-input-file"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "@good" in out and "@bad" not in out
    assert err.endswith(":1:42: error: illegal storage type minimum: -9\n")
