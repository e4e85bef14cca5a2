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


#: The profiles each extension works with (the spec's `profile_supported`): an extension
#: enabled without one of them does not make its ops legal.
_EXTENSION_PROFILES = {
    "int16": ("pro_int",),
    "int4": ("pro_int",),
    "doubleround": ("pro_int",),
    "inexactround": ("pro_int",),
    "bf16": ("pro_fp",),
    "fp8e4m3": ("pro_fp",),
    "fp8e5m2": ("pro_fp",),
    "fft": ("pro_fp",),
    "int64": ("pro_int", "pro_fp"),
    "variable": ("pro_int", "pro_fp"),
    "controlflow": ("pro_int", "pro_fp"),
    "dynamic": ("pro_int", "pro_fp"),
}


def _profiles_needed(alternative: tuple[str, ...], enabled: frozenset[str]) -> tuple[str, ...]:
    """The profiles `alternative`'s extensions need and `enabled` lacks (empty: none)."""
    for name in alternative:
        profiles = _EXTENSION_PROFILES.get(name)
        if profiles is not None and not enabled.intersection(profiles):
            return profiles
    return ()


@dataclass(frozen=True)
class Mode:
    types: dict[str, tuple[str, ...]]
    alternatives: tuple[tuple[str, ...], ...]
    version: str


def _element_name(t: Attribute) -> str | None:
    if isinstance(t, TensorType | UnrankedTensorType):
        if hasattr(t.get_element_type(), "storage_width"):  # !quant.any: no TOSA type
            return str(t.get_element_type())
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


#: Element types TOSA has at all; others (f64, ui8, i2, ...) are "not legal" outright.
VALID_ELEMENT_TYPES = frozenset(
    "i1 i4 i8 i16 i32 i48 i64 f16 bf16 f32 f8E4M3FN f8E5M2 f6E2M3FN f6E3M2FN f4E2M1FN "
    "f8E8M0FNU shape".split()
)

#: Upstream's spelling of element types in its compliance messages.
_TYPE_NAMES = {
    "f8E4M3FN": "fp8e4m3",
    "f8E5M2": "fp8e5m2",
    "f6E2M3FN": "fp6e2m3",
    "f6E3M2FN": "fp6e3m2",
    "f4E2M1FN": "fp4e2m1",
    "f8E8M0FNU": "fp8e8m0",
}

_CONV = (0, 1, 2, 3, 4, "acc", "r0")
#: The values, in order, whose element types upstream's compliance tables list for an
#: op (operand indices, "acc" for `acc_type`, "rN" for results); ops not listed list all
#: operands, then all results.
_LISTED_VALUES: dict[str, tuple[int | str, ...]] = {
    "tosa.conv2d": _CONV,
    "tosa.conv3d": _CONV,
    "tosa.depthwise_conv2d": _CONV,
    "tosa.transpose_conv2d": _CONV,
    "tosa.avg_pool2d": (0, 1, 2, "acc", "r0"),
    "tosa.concat": (0, "r0"),
    "tosa.pad": (0, 2, "r0"),
    "tosa.reshape": (0, "r0"),
    "tosa.slice": (0, "r0"),
    "tosa.tile": (0, "r0"),
    "tosa.transpose": (0, "r0"),
    "tosa.mul": (0, 1, "r0"),
    "tosa.resize": (0, "r0"),
    "tosa.select": (1, 2, "r0"),
    "tosa.rescale": (0, 3, 4, "r0"),
}


def _listed(op: Operation) -> list[tuple[str, str]] | None:
    """(type variable, element type) of each value upstream's tables list, in its order."""
    signature = SIGNATURES.get(op.name)
    if signature is None:
        return None
    inputs, outputs, acc = signature
    slots = _LISTED_VALUES.get(
        op.name, (*range(len(op.operands)), *(f"r{i}" for i in range(len(op.results))))
    )
    listed = []
    for slot in slots:
        if slot == "acc":
            attr = op.properties.get("acc_type", op.attributes.get("acc_type"))
            if not acc or attr is None:
                return None
            listed.append((acc, str(getattr(attr, "type", attr))))
            continue
        values, variables = (
            (op.results, outputs) if isinstance(slot, str) else (op.operands, inputs)
        )
        index = int(slot[1:]) if isinstance(slot, str) else slot
        if index >= len(values) or not variables:
            return None
        name = _element_name(values[index].type)
        if name is None:
            return None
        listed.append((variables[min(index, len(variables) - 1)].rstrip("*"), name))
    return listed


def misaligned_message(op: Operation) -> str | None:
    """Upstream's message for element types that are each TOSA's but match no mode of
    the op together, with the closest mode (most positions equal; the profiles' modes
    first, then the extensions', as upstream searches them). Modes that give a variable a
    set of types (1.1's deduced-type extension) are not suggested: they name no one
    combination."""
    listed = _listed(op)
    if not listed:
        return None
    modes = sorted(
        MODES[op.name],
        key=lambda mode: not any(set(alt) & {"pro_int", "pro_fp"} for alt in mode[1]),
    )
    best, best_count = None, -1
    for types, _alternatives, _version in modes:
        by_var = dict(types)
        if any(var not in by_var for var, _ in listed) or any(len(t) > 1 for t in by_var.values()):
            continue
        count = sum(name in by_var[var] for var, name in listed)
        if count > best_count:
            best, best_count = [by_var[var][0] for var, _ in listed], count
    if best is None:
        return None

    def text(names: Sequence[str]) -> str:
        return ",".join(_TYPE_NAMES.get(n, n) for n in names)

    return (
        "illegal: operation operand/result data types did not align with any profile or "
        f"extension, got ({text([n for _, n in listed])}), did you mean ({text(best)})? "
        f"Otherwise, please refer to the 'supported data types' for '{op.name}' in the "
        "specification."
    )


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
        for names in seen.values():
            for name in sorted(names):
                if name not in VALID_ELEMENT_TYPES:
                    return "unaligned", name
        message = misaligned_message(op)
        return ("illegal", message) if message else ("unaligned", None)
    current = [
        m for m in modes if version is None or _version_key(m.version) <= _version_key(version)
    ]
    considered = current or modes
    satisfied = [alt for m in current for alt in m.alternatives if set(alt) <= enabled]
    if satisfied:
        needs = [_profiles_needed(alt, enabled) for alt in satisfied]
        if any(not n for n in needs):
            return None
        return (
            "illegal",
            f"illegal: requires [{', '.join(needs[0])}] to work with but not enabled in target",
        )
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
