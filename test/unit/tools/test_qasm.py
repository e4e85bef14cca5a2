"""qasm: assemble, disassemble, and errors that name the file and line."""

from __future__ import annotations

from pathlib import Path

from qdialect.npu.encoding import assemble, disassemble
from qdialect.tools import qasm

ROOT = Path(__file__).resolve().parents[3]


def test_qasm_cli(tmp_path: Path, capsys) -> None:
    out = tmp_path / "m.npub"
    assert qasm.main([str(ROOT / "examples" / "npu_matmul.s"), "-o", str(out)]) == 0
    assert qasm.main(["-d", str(out)]) == 0
    text = capsys.readouterr().out  # the whole program: directives, then the instructions
    instructions = disassemble(assemble((ROOT / "examples" / "npu_matmul.s").read_text()))
    assert text.startswith('.machine "default" 0x') and text.endswith(".text\n" + instructions)
    assert qasm.main(["-d", str(out), "--machine", "small"]) == 1
    assert "built for another machine description" in capsys.readouterr().err
    bad = tmp_path / "bad.s"
    bad.write_text("halt\nwait queue=nowhere\n")
    assert qasm.main([str(bad), "-o", str(out)]) == 1
    assert f"{bad}:2: 'queue' must be one of" in capsys.readouterr().err
