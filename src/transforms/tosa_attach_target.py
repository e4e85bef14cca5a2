"""`tosa-attach-target`: record a TOSA target on the module for `tosa-validate` to read.

Writes `tosa.target_env = {level = "8k", profiles = [...], extensions = [...]}` on
the module, as upstream MLIR's pass of the same name does, so a pipeline names the
target once: `tosa-attach-target{profiles=pro_int extensions=int16},tosa-validate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass

from qdialect.transforms.tosa_validate import EXTENSIONS, PROFILES, _split

PASS_NAME = "tosa-attach-target"


@dataclass(frozen=True)
class TosaAttachTarget(ModulePass):
    """Attach `tosa.target_env` (profiles, extensions, level) to the module."""

    name = PASS_NAME

    profiles: tuple[str, ...] = ()
    """None by default, as upstream's list option: `tosa-attach-target{}` targets no profile."""
    extensions: tuple[str, ...] = field(default=())
    level: str = "8k"
    specification_version: str | float = "1.0"
    """Upstream writes `specification_version=1.0`, which the option parser reads as a
    number; it is kept as the text upstream records ("1.0")."""

    def __post_init__(self) -> None:
        if isinstance(self.specification_version, float | int):
            object.__setattr__(self, "specification_version", f"{self.specification_version}")
        for p in _split(self.profiles):
            if p not in PROFILES:
                raise ValueError(
                    f"{PASS_NAME}: unknown profile '{p}' (known: {', '.join(PROFILES)})"
                )
        for e in _split(self.extensions):
            if e not in EXTENSIONS:
                raise ValueError(
                    f"{PASS_NAME}: unknown extension '{e}' (known: {', '.join(EXTENSIONS)})"
                )
        if self.level not in ("8k", "none"):
            raise ValueError(f"{PASS_NAME}: level must be '8k' or 'none', not '{self.level}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        op.attributes["tosa.target_env"] = DictionaryAttr(
            {
                "specification_version": StringAttr(str(self.specification_version)),
                "level": StringAttr(self.level),
                "profiles": ArrayAttr([StringAttr(p) for p in _split(self.profiles)]),
                "extensions": ArrayAttr([StringAttr(e) for e in _split(self.extensions)]),
            }
        )
