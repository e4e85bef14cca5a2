"""Generate src/transforms/tosa_type_support.py from the TOSA specification's tosa.xml.

The specification lists, for every operator, the element types each argument may have
("modes") and the profiles or extensions that make each mode legal, and the version
that added it. `tosa-validate` checks ops against that table; this script writes it as
plain Python data, so the check follows the specification rather than a summary of it.

    python tools/gen_tosa_type_support.py path/to/tosa-specification/tosa.xml [COMMIT]

Rerun it when the specification changes; the output names the spec version (and the
commit, when given) it was made from.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "transforms" / "tosa_type_support.py"

#: Specification element types as MLIR writes them.
ELEMENT_TYPES = {
    "bool_t": "i1",
    "i4_t": "i4",
    "i8_t": "i8",
    "i16_t": "i16",
    "i32_t": "i32",
    "i48_t": "i48",
    "i64_t": "i64",
    "fp16_t": "f16",
    "bf16_t": "bf16",
    "fp32_t": "f32",
    "fp8e4m3_t": "f8E4M3FN",
    "fp8e5m2_t": "f8E5M2",
    "fp6e2m3_t": "f6E2M3FN",
    "fp6e3m2_t": "f6E3M2FN",
    "fp4e2m1_t": "f4E2M1FN",
    "fp8ue8m0_t": "f8E8M0FNU",
    "mxint8_t": "mxint8",
    "tensor_size_t": "shape",
}


def requirement_name(spec_name: str) -> str:
    """`PRO-INT` -> `pro_int`, `EXT-MX-FP4E2M1` -> `mx_fp4e2m1` (MLIR's spellings)."""
    return spec_name.removeprefix("EXT-").lower().replace("-", "_")


def signature(op: ET.Element) -> tuple[list[str], list[str], str]:
    """The type variable of each input and output (in order; `*` after a variable for a
    list that takes the remaining operands, "" for none), and of the `acc_type`
    attribute ("" when the operator has none)."""
    inputs, outputs, acc = [], [], ""
    for arg in op.iter("argument"):
        variable = arg.get("tensor-element-type", "-")
        variable = "" if variable == "-" else variable
        kind = arg.get("type", "")
        if kind == "shape_t" and not variable:
            variable = "shape_t"
        if kind.endswith("_list_t"):
            variable += "*"
        if arg.get("category") == "input":
            inputs.append(variable)
        elif arg.get("category") == "output":
            outputs.append(variable)
        elif kind == "acc_type_t":
            acc = "acc_t"
    return inputs, outputs, acc


def modes(op: ET.Element) -> list[tuple]:
    result = []
    for support in op.iter("typesupport"):
        types: dict[str, tuple[str, ...]] = {}
        for key, value in support.attrib.items():
            if key.endswith("_t") and value in ELEMENT_TYPES:
                types[key] = (ELEMENT_TYPES[value],)
        sets = {s.get("name"): s.get("values", "").split() for s in support.iter("type_set")}
        for bind in support.iter("type_bind"):
            values = sets.get(bind.get("set"), [])
            types[bind.get("type", "")] = tuple(
                ELEMENT_TYPES[v] for v in values if v in ELEMENT_TYPES
            )
        alternatives = []
        for profile in support.iter("op_profile"):
            needed = [profile.get(k) for k in ("name", "and_name", "and_name2") if profile.get(k)]
            alternatives.append(tuple(requirement_name(n) for n in needed if n))
        result.append(
            (tuple(sorted(types.items())), tuple(alternatives), support.get("version_added", "1.0"))
        )
    return result


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 1
    root = ET.parse(argv[0]).getroot()
    version = root.find("version")
    assert version is not None
    spec = f"{version.get('major')}.{version.get('minor')}" + (
        ".draft" if version.get("draft") == "true" else ""
    )
    source = f"tosa.xml of the TOSA specification {spec}" + (
        f" (commit {argv[1]})" if len(argv) > 1 else ""
    )
    lines = [
        '"""The element types each TOSA operator takes, and what makes each legal: generated',
        f"by tools/gen_tosa_type_support.py from the {source}.",
        "Do not edit; rerun the script.",
        "",
        "SIGNATURES: op -> (inputs, outputs, acc): the type variable of each operand and result",
        'in order (`*` after a variable: a list taking the remaining operands; "" none), and',
        "`acc_t` when the `acc_type` attribute holds one.",
        "MODES: op -> ((types, alternatives, version), ...): `types` pairs each variable with the",
        "element types it may be (MLIR's spellings, `shape` for !tosa.shape); `alternatives`",
        "lists the profile/extension sets that make the mode legal (all of one set needed);",
        "`version` is the specification version that added the mode.",
        '"""',
        "",
        f'SPEC_VERSION = "{spec}"',
        "",
        "SIGNATURES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str]] = {",
    ]
    table = []
    for op in root.iter("operator"):
        name_node = op.find("name")
        assert name_node is not None and name_node.text
        name = "tosa." + name_node.text.lower()
        inputs, outputs, acc = signature(op)
        lines.append(f"    {name!r}: ({tuple(inputs)!r}, {tuple(outputs)!r}, {acc!r}),")
        table.append((name, modes(op)))
    lines += ["}", "", "MODES: dict[str, tuple[tuple, ...]] = {"]
    for name, entries in table:
        lines.append(f"    {name!r}: (")
        lines += [f"        {entry!r}," for entry in entries]
        lines.append("    ),")
    lines += ["}", ""]
    OUT.write_text("\n".join(lines))
    print(f"wrote {OUT} ({len(table)} operators, spec {spec})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
