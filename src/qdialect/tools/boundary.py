"""The one error boundary every qdialect command-line tool runs in.

A tool's `main` builds its arguments with `ToolArgumentParser` and runs its body
through `run_tool`, so all tools agree on what a failure looks like:

- a user error (bad input, file or option) is one `PROG: error: ...` line (or a
  located `file:line:col: error: ...` diagnostic the tool printed itself) and
  exit status 1 — argument errors included, unlike argparse's default 2;
- an internal error (a bug in qdialect) is one `PROG: internal error: ...` line
  and exit status 2; with `QDIALECT_DEBUG=1` in the environment it is re-raised
  so Python prints the traceback;
- an interrupt (Ctrl-C) is exit status 130.

Running out of memory or recursion depth counts as internal: every input a tool
accepts has stated limits checked up front, so reaching either is a missing check.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import NoReturn

EXIT_OK = 0
EXIT_USER_ERROR = 1
EXIT_INTERNAL_ERROR = 2
EXIT_INTERRUPTED = 130

DEBUG_VARIABLE = "QDIALECT_DEBUG"

EXIT_STATUS_HELP = (
    "exit status: 0 success; 1 user error (bad input, file or option: one 'error:' line); "
    f"2 internal error (a bug: one line, {DEBUG_VARIABLE}=1 prints the traceback); "
    "130 interrupted"
)


class UserError(Exception):
    """A one-line user-facing error (bad file, bad option): printed as `error: ...`, exit 1."""


class ToolArgumentParser(argparse.ArgumentParser):
    """argparse with the tools' exit statuses: a bad argument is a user error (exit 1),
    and `--help` ends with the exit statuses."""

    def __init__(self, *args, **kwargs) -> None:
        epilog = kwargs.get("epilog")
        kwargs["epilog"] = f"{epilog}\n\n{EXIT_STATUS_HELP}" if epilog else EXIT_STATUS_HELP
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USER_ERROR, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def first_line(err: BaseException) -> str:
    """The first non-empty line of an exception's message (or its type's name)."""
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _os_error_text(err: OSError) -> str:
    if err.filename is not None and err.strerror:
        return f"{err.filename}: {err.strerror}"
    return err.strerror or first_line(err)


def run_tool(
    prog: str,
    body: Callable[[], int],
    user_errors: tuple[type[BaseException], ...] = (),
) -> int:
    """Run a tool's body; map what escapes it to one line on stderr and an exit status.

    `user_errors` are the exception types the tool raises for bad input (besides
    `UserError` and `OSError`, which are always the user's: a missing file, a
    full disk, an unwritable output)."""
    try:
        return body()
    except (UserError, *user_errors) as err:
        print(f"{prog}: error: {first_line(err)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:
        # The reader went away (`qopt ... | head`): not an error worth a message.
        _silence_stdout()
        return EXIT_USER_ERROR
    except OSError as err:
        print(f"{prog}: error: {_os_error_text(err)}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except Exception as err:  # a bug: one line unless debugging
        if os.environ.get(DEBUG_VARIABLE):
            raise
        print(
            f"{prog}: internal error: {type(err).__name__}: {first_line(err)} "
            f"(set {DEBUG_VARIABLE}=1 for a traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL_ERROR


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's exit-time flush of a closed pipe is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
