"""Pass pipelines: MLIR's `builtin.module(p1,p2{opt=v},func.func(p3))` and xDSL's `p1,p2`.

A pipeline is a flat list of steps; a step is a pass plus its anchor. Passes
nested under `func.func(...)` run on each top-level function in turn (the
function is moved into a scratch module for the pass and moved back), so a
pass written against `builtin.module` works unchanged on one function.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, parse_spec
from xdsl.utils.exceptions import ArgSpecParseError

__all__ = ["PassStep", "PipelineError", "parse_pass_list", "parse_pass_pipeline"]

PassRegistry = dict[str, Callable[[], type[ModulePass]]]

MODULE_ANCHOR = "builtin.module"
FUNC_ANCHOR = "func.func"
_ANCHORS = (MODULE_ANCHOR, FUNC_ANCHOR)


class PipelineError(ValueError):
    """A malformed pipeline string, an unknown pass, or bad pass options."""


@dataclass(frozen=True)
class PassStep:
    pass_: ModulePass
    anchor: str = MODULE_ANCHOR

    @property
    def name(self) -> str:
        return self.pass_.name

    def apply(self, ctx: Context, module: ModuleOp) -> None:
        if self.anchor == MODULE_ANCHOR:
            self.pass_.apply(ctx, module)
            return
        for func in [op for op in module.ops if isinstance(op, FuncOp)]:
            block = func.parent_block()
            assert block is not None
            successor = func.next_op
            func.detach()
            scratch = ModuleOp([func])
            try:
                self.pass_.apply(ctx, scratch)
            finally:
                func.detach()
                if successor is not None:
                    block.insert_op_before(func, successor)
                else:
                    block.add_op(func)


_NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


class _PipelineParser:
    def __init__(self, text: str, registry: PassRegistry):
        self.text = text
        self.pos = 0
        self.registry = registry

    def error(self, message: str) -> PipelineError:
        return PipelineError(
            f"malformed pass pipeline at column {self.pos + 1}: {message}: '{self.text}'"
        )

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_ws()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = self.peek() or "end of input"
            raise self.error(f"expected '{char}', found '{found}'")
        self.pos += 1

    def name(self) -> str:
        self.skip_ws()
        match = _NAME_RE.match(self.text, self.pos)
        if match is None:
            found = self.peek() or "end of input"
            raise self.error(f"expected a pass or operation name, found '{found}'")
        self.pos = match.end()
        return match.group(0)

    def options(self) -> str:
        """The raw `{...}` text (balanced braces, quotes respected)."""
        start = self.pos
        depth = 0
        quoted = False
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == '"':
                quoted = not quoted
            elif not quoted and char == "{":
                depth += 1
            elif not quoted and char == "}":
                depth -= 1
                if depth == 0:
                    return self.text[start : self.pos]
        self.pos = start
        raise self.error("unterminated pass options '{'")

    def pipeline(self) -> list[PassStep]:
        anchor = self.name()
        if anchor != MODULE_ANCHOR:
            raise self.error(f"the pipeline must be anchored on '{MODULE_ANCHOR}', not '{anchor}'")
        steps = self.nested(MODULE_ANCHOR)
        if self.peek():
            raise self.error(f"unexpected '{self.peek()}' after the pipeline")
        return steps

    def nested(self, anchor: str) -> list[PassStep]:
        self.expect("(")
        steps: list[PassStep] = []
        if self.peek() == ")":
            self.pos += 1
            return steps
        while True:
            steps.extend(self.element(anchor))
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect(")")
            return steps

    def element(self, anchor: str) -> list[PassStep]:
        self.skip_ws()
        start = self.pos
        name = self.name()
        if self.peek() == "(":
            self.pos = start  # point errors at the anchor's name
            if name not in _ANCHORS:
                raise self.error(
                    f"cannot nest passes on '{name}' (supported anchors: {', '.join(_ANCHORS)})"
                )
            if anchor == FUNC_ANCHOR:
                raise self.error(f"cannot nest '{name}' inside '{FUNC_ANCHOR}'")
            self.pos += len(name)
            return self.nested(name)
        options = self.options() if self.peek() == "{" else ""
        return [PassStep(make_pass(name, options, self.registry), anchor)]


def make_pass(name: str, options: str, registry: PassRegistry) -> ModulePass:
    """Instantiate a registered pass from its name and `{key=value ...}` options."""
    if name not in registry:
        raise PipelineError(f"unknown pass '{name}' (see `qopt --list-passes`)")
    try:
        # Upstream's version strings (`specification_version=1.1.draft`) are bare words.
        options = re.sub(r"=(\d+(?:\.\d+)*\.[A-Za-z]\w*)(?=[\s}])", r'="\1"', options)
        spec = parse_spec(name + options)
        # MLIR reads a bare option name (`tosa-validate{strict-op-spec-alignment}`) as true.
        spec = ArgSpec(spec.name, {k: v or (True,) for k, v in spec.parameters.items()})
        return registry[name]().from_pass_spec(spec)
    except (ArgSpecParseError, ValueError, TypeError) as err:
        raise PipelineError(f"invalid options for pass '{name}': {err}") from None


def parse_pass_pipeline(text: str, registry: PassRegistry) -> list[PassStep]:
    """Parse MLIR's textual pipeline, e.g. `builtin.module(canonicalize,cse)`."""
    return _PipelineParser(text, registry).pipeline()


def parse_pass_list(text: str, registry: PassRegistry) -> list[PassStep]:
    """Parse xDSL's `-p` form: `p1,p2{opt=v}`, all anchored on the module."""
    parser = _PipelineParser(text, registry)
    steps: list[PassStep] = []
    if not parser.peek():
        return steps
    while True:
        steps.extend(parser.element(MODULE_ANCHOR))
        if parser.peek() == ",":
            parser.pos += 1
            continue
        if parser.peek():
            raise parser.error(f"unexpected '{parser.peek()}'")
        return steps


def pass_names(steps: Iterable[PassStep]) -> list[str]:
    return [step.name for step in steps]
