"""A reference interpreter for StableHLO-like programs (float, integer and quantized).

    from qdialect.interpreter import Interpreter
    results = Interpreter(module).call("main", [x, w])

See docs/interpreter.md for what each op computes.
"""

from qdialect.interpreter.core import CheckFailure, Interpreter, OpFailure, implements
from qdialect.interpreter.values import InterpreterError

__all__ = ["CheckFailure", "Interpreter", "InterpreterError", "OpFailure", "implements"]
