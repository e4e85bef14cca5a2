"""The npu dialect: verifying a program needs the machine description, not the simulator."""

from __future__ import annotations

import subprocess
import sys


def test_verifying_a_program_does_not_import_the_simulator() -> None:
    probe = (
        "import sys\n"
        "from qdialect.context import make_context\n"
        "from qdialect.ir.parser import QParser\n"
        "QParser(make_context(), 'npu.program machine = \"small\" {\\n npu.halt\\n}')"
        ".parse_module().verify()\n"
        "assert 'qdialect.npu.simulator' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)
