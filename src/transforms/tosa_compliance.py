"""Which profiles, extensions and specification version a TOSA op needs, from its types.

The specification gives each operator a table of modes: the element types its arguments
may take together, and for each mode the profile or extension sets that make it legal
and the version that added it (`tosa_type_support`, generated from tosa.xml). An op
needs what the modes matching its types need: `tosa.add` on i32 is legal in `pro_int`
or `pro_fp`; on i16 it matches no mode. `requirement` returns what is missing for a
target, in upstream MLIR's words, or None when the target allows the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType, UnrankedTensorType
from xdsl.ir import Attribute, Operation, TypeAttribute

from qdialect.dialects import tosa
from qdialect.transforms.tosa_type_support import MODES, SIGNATURES, SPEC_VERSION

#: Requirements upstream words as `requires [X] but not enabled in target` when they
#: are the only ones missing; others read `requires any of [...] ... environment`.
_NOT_ENABLED_WORDING = {"pro_int", "controlflow", "shape"}


@dataclass(frozen=True)
class Mode:
    types: dict[str, tuple[str, ...]]
    alternatives: tuple[tuple[str, ...], ...]
    version: str


def _element_name(t: Attribute) -> str | None:
    if isinstance(t, TensorType | UnrankedTensorType):
        return str(tosa.storage_element(t))
    if isinstance(t, TypeAttribute) and t.name == "tosa.shape":
        return "shape"
    return None


def observed_types(op: Operation) -> dict[str, set[str]] | None:
    """Element types by the op's type variables, or None when the op's operands do not
    line up with the specification's arguments (an op the table does not describe)."""
    signature = SIGNATURES.get(op.name)
    if signature is None:
        return None
    inputs, outputs, acc = signature
    seen: dict[str, set[str]] = {}
    for variables, values in ((inputs, op.operands), (outputs, op.results)):
        if len(values) > len(variables) and not (variables and variables[-1].endswith("*")):
            return None
        for index, value in enumerate(values):
            variable = variables[min(index, len(variables) - 1)].rstrip("*")
            name = _element_name(value.type)
            if variable and name is not None:
                seen.setdefault(variable, set()).add(name)
    if op.name == "tosa.variable":  # its value's type is an attribute (the spec's in_t)
        held = op.properties.get("type", op.attributes.get("type"))
        if held is not None and (name := _element_name(held) or str(held)):
            seen.setdefault("in_t", set()).add(name)
    acc_type = op.properties.get("acc_type", op.attributes.get("acc_type"))
    if acc and acc_type is not None:
        seen.setdefault(acc, set()).add(str(getattr(acc_type, "type", acc_type)))
    return seen


def matching_modes(op: Operation) -> list[Mode] | None:
    """The modes whose types the op's types fit; None when the table does not describe
    the op."""
    seen = observed_types(op)
    if seen is None:
        return None
    modes = [
        Mode(dict(types), alternatives, version) for types, alternatives, version in MODES[op.name]
    ]
    return [
        m
        for m in modes
        if all(names <= set(m.types[var]) for var, names in seen.items() if var in m.types)
    ]


def _version_key(version: str) -> tuple[int, int]:
    major, _, rest = version.partition(".")
    return int(major), int(rest.split(".")[0] or 0)


def _ordered(names: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(names))


def requirement(
    op: Operation, enabled: frozenset[str], version: str | None
) -> tuple[str, str | None] | None:
    """What the target lacks for `op`: ("illegal", message) for a profile, extension or
    version; ("unaligned", element type) for types no mode has; None when allowed or
    when the table does not describe the op."""
    modes = matching_modes(op)
    if modes is None:
        return None
    if not modes:
        seen = observed_types(op) or {}
        legal = {var: set() for var in seen}
        for types, _alternatives, _version in MODES[op.name]:
            for var, names in types:
                legal.setdefault(var, set()).update(names)
        for var, names in seen.items():
            for name in sorted(names):
                if legal.get(var) and name not in legal[var]:
                    return "unaligned", name
        return "unaligned", None
    current = [
        m for m in modes if version is None or _version_key(m.version) <= _version_key(version)
    ]
    considered = current or modes
    if current and any(set(alt) <= enabled for m in current for alt in m.alternatives):
        return None
    missing = [
        tuple(n for n in alt if n not in enabled) for m in considered for alt in m.alternatives
    ]
    missing = [m for m in missing if m]
    parts = []
    if not current:
        newest = min((m.version for m in modes), key=_version_key)
        # the table's own spelling for its version (`1.1.draft`), else the version added
        spec = SPEC_VERSION if _version_key(SPEC_VERSION) == _version_key(newest) else newest
        parts.append(f"requires specification version compatible with {spec} (got {version})")
        if not missing or any(set(alt) <= enabled for m in modes for alt in m.alternatives):
            return "illegal", "illegal: " + parts[0] + " to be specified in the target environment"
    names = _ordered([n for alt in missing for n in alt])
    if len(missing) == 1 and len(missing[0]) > 1:
        parts.append(f"requires all of [{', '.join(missing[0])}] profiles/extensions")
    elif not parts and len(names) == 1 and names[0] in _NOT_ENABLED_WORDING:
        return "illegal", f"illegal: requires [{names[0]}] but not enabled in target"
    else:
        parts.append(f"requires any of [{', '.join(names)}] profiles/extensions")
    return "illegal", "illegal: " + " and ".join(
        parts
    ) + " to be specified in the target environment"
