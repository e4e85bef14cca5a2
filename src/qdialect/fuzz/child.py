"""Run one tool invocation in a forked child with a memory cap and a timeout, and
classify what happened.

Forking keeps each case cheap (the parent has already imported xDSL and numpy) and
isolated: a case that exhausts memory, hangs or corrupts global state dies alone.
The memory cap (RLIMIT_AS) bounds the address space a case adds to the parent's: memory
the parent freed to its allocator but kept mapped is reusable by the child beyond the
cap, so the fuzzer runs cases from a fresh, small parent (`python -m qdialect.fuzz`).
The classification is what issue-free tools must guarantee (docs/hostile-input.md):
a case is `ok` (exit 0) or `rejected` (exit 1, error lines, no traceback); anything
else is a bug.
"""

from __future__ import annotations

import faulthandler
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

OK = "ok"
REJECTED = "rejected"
INTERNAL = "internal-error"  # exit 2: the boundary caught a bug
TRACEBACK = "traceback"  # a traceback reached stderr, or an exception escaped main
MEMORY = "memory"  # MemoryError, or killed for exceeding the cap
HANG = "hang"  # still running at the timeout
CRASH = "crash"  # killed by a signal (segfault, abort)

KINDS = (OK, REJECTED, INTERNAL, TRACEBACK, MEMORY, HANG, CRASH)
BUGS = frozenset(KINDS) - {OK, REJECTED}

_ESCAPED = 3  # the child's status when an exception escaped the tool's main


@dataclass(frozen=True)
class Outcome:
    kind: str
    status: int | None  # the exit status, None if killed
    stderr: str  # the last lines the tool wrote to stderr
    seconds: float
    signal: int = 0  # the signal that ended the child (0 if it exited or was killed at the timeout)

    @property
    def is_bug(self) -> bool:
        return self.kind in BUGS


def _virtual_memory_bytes() -> int:
    """This process's current address-space size (the cap is set above it)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _child(body: Callable[[], int], stderr_fd: int, memory_bytes: int, timeout: float) -> None:
    """In the forked child: cap memory and time, silence stdout, run, exit with the status."""
    status = _ESCAPED
    try:
        cap = _virtual_memory_bytes() + memory_bytes
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
        signal.alarm(int(timeout) + 2)  # a backstop should the parent die
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(stderr_fd, 2)
        # The parent's sys.stdout/stderr may be wrappers (pytest's capture) that do not
        # write to fds 1 and 2; the tool's output must go where the parent reads it.
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        os.environ.pop("QDIALECT_DEBUG", None)
        faulthandler.disable()  # a crash is classified by its signal, not dumped
        try:
            result = body()
            status = result if isinstance(result, int) else 0
        except SystemExit as exit_:
            code = exit_.code
            status = code if isinstance(code, int) else (0 if code is None else 1)
        except BaseException:
            traceback.print_exc()
            status = _ESCAPED
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


class Running:
    """A case running in a forked child; `poll` until it gives its Outcome."""

    def __init__(self, body: Callable[[], int], timeout: float, memory_mb: int) -> None:
        self._err = tempfile.TemporaryFile()
        self._timeout = timeout
        sys.stdout.flush()
        sys.stderr.flush()
        self._start = time.monotonic()
        self._pid = os.fork()
        if self._pid == 0:
            _child(body, self._err.fileno(), memory_mb << 20, timeout)

    def poll(self) -> Outcome | None:
        """The outcome once the child has ended (or was killed at the timeout), else None."""
        status: int | None = None
        killed, signaled = False, 0
        done, wait_status = os.waitpid(self._pid, os.WNOHANG)
        if done:
            if os.WIFEXITED(wait_status):
                status = os.WEXITSTATUS(wait_status)
            else:
                signaled = os.WTERMSIG(wait_status)
        elif time.monotonic() - self._start > self._timeout:
            os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            killed = True
        else:
            return None
        seconds = time.monotonic() - self._start
        self._err.seek(0)
        text = self._err.read()[-4000:].decode("utf-8", "replace")
        self._err.close()
        return Outcome(_classify(status, text, killed, signaled), status, text, seconds, signaled)


def run_in_child(body: Callable[[], int], timeout: float = 10.0, memory_mb: int = 2048) -> Outcome:
    """Run `body` (a tool's `main` bound to its arguments) in a forked child."""
    running = Running(body, timeout, memory_mb)
    while (outcome := running.poll()) is None:
        time.sleep(0.005)
    return outcome


def _classify(status: int | None, stderr: str, killed: bool, signaled: int) -> str:
    if killed:
        return HANG
    if status is None:
        return MEMORY if signaled == signal.SIGKILL else CRASH
    if "MemoryError" in stderr:
        return MEMORY
    if "Traceback (most recent call last)" in stderr or status == _ESCAPED:
        return TRACEBACK
    if status == 0:
        return OK
    if status == 1:
        return REJECTED
    if status == 2:
        return INTERNAL
    return CRASH
