"""The forked child classifies each way a tool can end."""

from __future__ import annotations

import os
import subprocess
import sys
import time

from qdialect.fuzz.child import CRASH, HANG, INTERNAL, MEMORY, OK, REJECTED, TRACEBACK, run_in_child
from qdialect.tools.boundary import run_tool


def test_exit_0_is_ok_and_exit_1_without_traceback_is_rejected() -> None:
    assert run_in_child(lambda: 0).kind == OK

    def reject() -> int:
        print("in.mlir:1:1: error: nope", file=sys.stderr)
        return 1

    outcome = run_in_child(reject)
    assert outcome.kind == REJECTED and not outcome.is_bug
    assert outcome.stderr == "in.mlir:1:1: error: nope\n"


def test_an_internal_error_is_a_bug() -> None:
    def bug() -> int:
        raise KeyError("x")

    outcome = run_in_child(lambda: run_tool("qtool", bug))
    assert outcome.kind == INTERNAL and outcome.is_bug and outcome.status == 2


def test_an_exception_escaping_main_is_a_traceback() -> None:
    def escape() -> int:
        raise ValueError("escaped")

    outcome = run_in_child(escape)
    assert outcome.kind == TRACEBACK and "ValueError: escaped" in outcome.stderr


def test_exit_1_with_a_printed_traceback_is_still_a_bug() -> None:
    def sloppy() -> int:
        print("Traceback (most recent call last):\n  ...", file=sys.stderr)
        return 1

    assert run_in_child(sloppy).kind == TRACEBACK


_BLOW_UP = """
from qdialect.fuzz.child import run_in_child
from qdialect.tools.boundary import run_tool

def blow_up() -> int:
    blocks = [bytearray(64 << 20) for _ in range(64)]  # 4 GiB against a 256 MiB cap
    return len(blocks)

print(run_in_child(lambda: run_tool("qtool", blow_up), timeout=120, memory_mb=256).kind)
"""


def test_the_memory_cap_turns_a_blow_up_into_a_memory_finding() -> None:
    # In a fresh interpreter, as the fuzzer runs: the cap bounds the address space a case
    # adds, and a long pytest session's parent has gigabytes freed to its allocator that a
    # forked child reuses without growing (a CI run saw all 4 GiB allocated under the cap).
    done = subprocess.run(
        [sys.executable, "-c", _BLOW_UP], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [MEMORY]


def test_a_case_past_its_timeout_is_killed_as_a_hang() -> None:
    def spin() -> int:
        time.sleep(60)
        return 0

    outcome = run_in_child(spin, timeout=0.5)
    assert outcome.kind == HANG and outcome.seconds < 5


def test_a_signal_is_a_crash() -> None:
    outcome = run_in_child(os.abort)
    assert outcome.kind == CRASH and outcome.status is None
