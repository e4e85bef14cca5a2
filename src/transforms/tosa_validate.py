"""`tosa-validate`: check a TOSA program against a target's profiles, extensions and level.

The TOSA specification groups what an implementation must support into profiles
(`pro_int`: integer inference, `pro_fp`: floating point), extensions (`int16`,
`int4`, `bf16`, `fp8e4m3`, `fp8e5m2`, `fft`, `variable`, `controlflow`,
`doubleround`, `inexactround`, ...; and qdialect's own `halfeven`, for the
rescale rounding mode TOSA 1.0 lacks) and levels (`8k`: the limits below; `none`: no
limits). A program that uses a type or a size its target does not promise is
rejected here, before anything runs, with upstream MLIR's messages:

    'tosa.conv2d' op failed level check: stride <= MAX_STRIDE (8192), got 8193
    'tosa.add' op illegal: requires any of [pro_fp] profiles/extensions to be specified in the target environment

Options (upstream's names): `profile=pro_int,pro_fp`, `extension=int16,...`,
`level=8k|none`, `strict-op-spec-alignment` (also reject i64 and other types no
profile defines). A `tosa.target_env` dictionary on the module (`profiles`,
`extensions`, `level`), as `tosa-attach-target` writes it, is used when present.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.passes import ModulePass

from qdialect.dialects import tosa
from qdialect.dialects import tosa_extra as tx
from qdialect.ir.constants import constant_array, constant_attr
from qdialect.ir.errors import OpError, OpErrors
from qdialect.transforms.tosa_compliance import requirement

PASS_NAME = "tosa-validate"

# TOSA v1.0 level 8K.
LEVEL_8K = {
    "MAX_RANK": 6,
    "MAX_KERNEL": 8192,
    "MAX_STRIDE": 8192,
    "MAX_SCALE": 256,
    "MAX_LOG2_SIZE": 31,
    "MAX_NESTING": 6,
    "MAX_TENSOR_LIST_SIZE": 64,
}

PROFILES = ("pro_int", "pro_fp")
EXTENSIONS = (
    "int16",
    "int4",
    "bf16",
    "fp8e4m3",
    "fp8e5m2",
    "fft",
    "variable",
    "controlflow",
    "doubleround",
    "inexactround",
    "dynamic",
    "int64",
    "shape",
    "mx_common",
    "mx_fp4e2m1",
    "mx_fp6e2m3",
    "mx_fp6e3m2",
    "mx_fp8e4m3",
    "mx_fp8e5m2",
    "mx_int8",
    "mxfp_conv",
    "halfeven",  # qdialect's, not TOSA's: `rounding_mode<HALF_EVEN_ROUND>` (numerics.md)
)

_CONTROL_FLOW = (tx.CondIfOp, tx.WhileLoopOp)

_UNSIGNED = ("ui8", "ui16", "ui32")
_CONV_CONSTANTS = (3, 4)  # input_zp, weight_zp
#: Operands a target without the `dynamic` extension can only take as compile-time
#: constants (zero points, multipliers, shifts, tables, pad values), by index.
CONSTANT_OPERANDS: dict[str, tuple[int, ...]] = {
    "tosa.avg_pool2d": (1, 2),
    "tosa.conv2d": _CONV_CONSTANTS,
    "tosa.conv3d": _CONV_CONSTANTS,
    "tosa.depthwise_conv2d": _CONV_CONSTANTS,
    "tosa.transpose_conv2d": _CONV_CONSTANTS,
    "tosa.matmul": (2, 3),
    "tosa.mul": (2,),
    "tosa.negate": (1, 2),
    "tosa.pad": (2,),
    "tosa.rescale": (1, 2, 3, 4),
    "tosa.table": (1,),
}


class ValidationError(OpError):
    """A program the target does not support: `'tosa.X' op <message>` at the op."""

    def __init__(self, op: Operation, message: str):
        super().__init__(op, f"'{op.name}' op {message}")


def _split(value: str | Sequence[str]) -> tuple[str, ...]:
    items = value.split(",") if isinstance(value, str) else list(value)
    return tuple(i.strip() for i in items if i.strip())


@dataclass(frozen=True)
class TosaValidate(ModulePass):
    """Reject TOSA ops the target's profiles, extensions or level do not allow."""

    name = PASS_NAME

    profile: tuple[str, ...] = ("pro_int", "pro_fp")
    """Profiles the target implements: `pro_int`, `pro_fp`."""
    extension: tuple[str, ...] = field(default=())
    """Extensions the target implements (`int16`, `int4`, `bf16`, `fp8e4m3`, ...)."""
    level: str = "8k"
    """`8k` (the limits of TOSA v1.0 level 8K) or `none`."""
    strict_op_spec_alignment: bool = False
    """Also reject element types no profile or extension defines (i64, f64, ...)."""

    def __post_init__(self) -> None:
        for p in _split(self.profile):
            if p not in PROFILES:
                raise ValueError(
                    f"{PASS_NAME}: unknown profile '{p}' (known: {', '.join(PROFILES)})"
                )
        for e in _split(self.extension):
            if e not in EXTENSIONS:
                raise ValueError(
                    f"{PASS_NAME}: unknown extension '{e}' (known: {', '.join(EXTENSIONS)})"
                )
        if self.level not in ("8k", "none"):
            raise ValueError(f"{PASS_NAME}: level must be '8k' or 'none', not '{self.level}'")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = Target.from_pass(self, op)
        errors: list[OpError] = []
        for inner in op.walk():
            if inner.name.startswith("tosa."):
                try:
                    target.check(inner)
                except ValidationError as err:  # one per op; every op is checked
                    errors.append(err)
        if errors:
            raise OpErrors(errors)


@dataclass
class Target:
    profiles: frozenset[str]
    extensions: frozenset[str]
    limits: dict[str, int] | None
    strict: bool
    version: str | None = None
    """The target's specification version (`tosa-attach-target`); None: every version."""

    @staticmethod
    def from_pass(p: TosaValidate, module: ModuleOp) -> Target:
        profiles, extensions, level = _split(p.profile), _split(p.extension), p.level
        version = None
        env = module.attributes.get("tosa.target_env")
        if isinstance(env, DictionaryAttr):
            spec = env.data.get("specification_version")
            version = spec.data if isinstance(spec, StringAttr) else None
            profiles = _names(env.data.get("profiles"), profiles)
            extensions = _names(env.data.get("extensions"), extensions)
            lv = env.data.get("level")
            if isinstance(lv, StringAttr):
                level = lv.data
        return Target(
            frozenset(profiles),
            frozenset(extensions),
            None if level == "none" else LEVEL_8K,
            p.strict_op_spec_alignment,
            version,
        )

    # ---- checks ----------------------------------------------------------------

    def check(self, op: Operation) -> None:
        """The level's limits, then the profiles and extensions (upstream's order: an op
        both too large and outside the target reports the limit), then, with
        `strict-op-spec-alignment`, the spec's ERROR_IF conditions the verifiers leave."""
        if self.limits is not None:
            self.check_level(op)
        self.check_profile(op)
        if "dynamic" not in self.extensions:
            check_constant_operands(op)
        if self.strict:
            check_error_if(op)

    def check_profile(self, op: Operation) -> None:
        """The specification's type tables (`tosa_compliance`), then the requirements
        types do not show: rescale's rounding modes. An element type TOSA lacks is
        reported in every mode, as upstream does, except the unsigned integers a
        `rescale` may carry when the spec alignment is not strict."""
        found = requirement(op, self.profiles | self.extensions, self.version)
        if found is not None:
            kind, detail = found
            if kind == "illegal":
                raise ValidationError(op, str(detail))
            lenient = isinstance(op, tosa.RescaleOp) and str(detail) in _UNSIGNED
            if self.strict or (detail and not lenient):
                what = f": element type '{detail}' is not legal" if detail else ""
                raise ValidationError(op, f"is not profile-aligned{what}")
        needs: list[tuple[str, ...]] = []
        if isinstance(op, tosa.RescaleOp):
            mode = op.rounding_mode.data.value
            if mode == "DOUBLE_ROUND":
                needs.append(("doubleround",))
            elif mode == "INEXACT_ROUND":
                needs.append(("inexactround",))
            elif mode == "HALF_EVEN_ROUND":  # qdialect's own, in no TOSA profile
                needs.append(("halfeven",))
        available = self.profiles | self.extensions
        for options in needs:
            if not available.intersection(options):
                raise ValidationError(
                    op,
                    f"illegal: requires any of [{', '.join(options)}] profiles/extensions to be "
                    "specified in the target environment",
                )

    def check_level(self, op: Operation) -> None:
        """Ranks and sizes of the tensors an op takes and gives, then its own limits.
        Tensor lists (the data of `cond_if`, `while_loop`, `custom`) count towards the
        size limit but not the rank limit, and `yield` only forwards values, as upstream
        checks them."""
        limits = self.limits
        assert limits is not None
        if isinstance(op, tx.YieldOp):
            return
        listed = isinstance(op, (*_CONTROL_FLOW, tx.CustomOp))
        held = [op.tensor_type()] if isinstance(op, tx.VariableOp) else []
        for what, types in (
            ("variable type", held),
            ("operand", [v.type for v in op.operands]),
            ("result", [v.type for v in op.results]),
        ):
            for index, t in enumerate(types):
                in_list = listed and not (
                    isinstance(op, tx.CondIfOp) and what == "operand" and index == 0
                )
                if isinstance(t, UnrankedTensorType):
                    raise ValidationError(op, "failed level check: unranked tensor")
                if isinstance(t, TensorType):
                    if len(t.get_shape()) > limits["MAX_RANK"] and not in_list:
                        raise ValidationError(
                            op, f"failed level check: {what} rank(shape) <= MAX_RANK"
                        )
                    if _size_in_bytes(t) > (1 << limits["MAX_LOG2_SIZE"]) - 1:
                        raise ValidationError(
                            op,
                            f"failed level check: {what} tensor size (in bytes) <= "
                            "(1 << MAX_LOG2_SIZE - 1)",
                        )
        self._check_op_limits(op, limits)

    def _check_op_limits(self, op: Operation, limits: dict[str, int]) -> None:
        kernel, stride, scale = limits["MAX_KERNEL"], limits["MAX_STRIDE"], limits["MAX_SCALE"]

        def at_most(value: int, bound: int, name: str, text: str) -> None:
            if value > bound:
                raise ValidationError(
                    op, f"failed level check: {text} <= {name} ({bound}), got {value}"
                )

        if isinstance(op, tosa.Conv2DOp | tosa.Conv3DOp | tosa.DepthwiseConv2DOp):
            w = tosa.shape_of(op.weight.type)
            dil = op.array("dilation")
            if w is not None:
                if isinstance(op, tosa.Conv2DOp):
                    ks = ((dil[0] * w[1], "dilation_y * KH"), (dil[1] * w[2], "dilation_x * KW"))
                elif isinstance(op, tosa.DepthwiseConv2DOp):
                    ks = ((dil[0] * w[0], "dilation_y * KH"), (dil[1] * w[1], "dilation_x * KW"))
                else:
                    ks = (
                        (dil[0] * w[1], "dilation_d * KD"),
                        (dil[1] * w[2], "dilation_y * KH"),
                        (dil[2] * w[3], "dilation_x * KW"),
                    )
                for value, text in ks:
                    at_most(value, kernel, "MAX_KERNEL", text)
            for p in op.array("pad"):
                at_most(p, kernel, "MAX_KERNEL", "pad")
            for s in op.array("stride"):
                at_most(s, stride, "MAX_STRIDE", "stride")
        elif isinstance(op, tosa.TransposeConv2DOp):
            w = tosa.shape_of(op.weight.type)
            if w is not None:
                at_most(w[1], kernel, "MAX_KERNEL", "KH")
                at_most(w[2], kernel, "MAX_KERNEL", "KW")
            for p in op.array("out_pad"):
                at_most(p, kernel, "MAX_KERNEL", "pad")
            for s in op.array("stride"):
                at_most(s, stride, "MAX_STRIDE", "stride")
        elif isinstance(op, tosa.MaxPool2dOp | tosa.AvgPool2dOp):
            for k in op.array("kernel"):
                at_most(k, kernel, "MAX_KERNEL", "kernel")
            for s in op.array("stride"):
                at_most(s, stride, "MAX_STRIDE", "stride")
            for p in op.array("pad"):
                at_most(p, kernel, "MAX_KERNEL", "pad")
        elif isinstance(op, tx.FFT2dOp | tx.RFFT2dOp):
            x = tosa.shape_of(op.operands[0].type)
            if x is not None:
                at_most(x[1], kernel, "MAX_KERNEL", "H")
                at_most(x[2], kernel, "MAX_KERNEL", "W")
        elif isinstance(op, tx.ResizeOp):
            values = tosa._shape_values(op.scale)
            if values is not None and values[1] and values[3]:
                at_most(values[0] // values[1], scale, "MAX_SCALE", "scale_y_n/scale_y_d")
                at_most(values[2] // values[3], scale, "MAX_SCALE", "scale_x_n/scale_x_d")
        list_size = limits["MAX_TENSOR_LIST_SIZE"]
        lists: list[tuple[str, int]] = []
        if isinstance(op, tosa.ConcatOp):
            lists.append(("input1", len(op.input1)))
        elif isinstance(op, tx.CustomOp):
            lists += [("input_list", len(op.input_list)), ("output_list", len(op.output_list))]
        elif isinstance(op, _CONTROL_FLOW):
            lists += [("inputs", len(op.input_list)), ("outputs", len(op.output_list))]
        for name, n in lists:
            at_most(n, list_size, "MAX_TENSOR_LIST_SIZE", f"length(tensor_list_shape({name}))")
        if isinstance(op, _CONTROL_FLOW):
            depth, parent = 1, op.parent_op()
            while parent is not None:
                depth += isinstance(parent, _CONTROL_FLOW)
                parent = parent.parent_op()
            at_most(depth, limits["MAX_NESTING"], "MAX_NESTING", "nesting depth")


def check_constant_operands(op: Operation) -> None:
    """Without the `dynamic` extension, the operands in `CONSTANT_OPERANDS` must come
    from a constant op (`tosa.const` or any other constant-like op)."""
    for index in CONSTANT_OPERANDS.get(op.name, ()):
        if index < len(op.operands) and constant_attr(op.operands[index]) is None:
            raise ValidationError(
                op,
                "expected compile time resolvable constant, but got variable value for "
                f"operand #{index}",
            )


def check_error_if(op: Operation) -> None:
    """RESIZE's ERROR_IF conditions on its constant scale, offset and border, SCATTER's
    on constant indices (no position written twice), and the isolation of control-flow
    regions, in upstream's words."""
    if isinstance(op, tx.ResizeOp):
        _check_resize(op)
    if isinstance(op, tx.ScatterOp):
        indices = constant_array(op.operands[1])
        if indices is not None and indices.ndim == 2:
            if any(len(set(row.tolist())) != len(row) for row in indices):
                raise ValidationError(op, "indices values contain duplicates")
    regions = {tx.CondIfOp: ("then", "else"), tx.WhileLoopOp: ("cond", "body")}
    for kind, names in regions.items():
        if isinstance(op, kind):
            for name, region in zip(names, op.regions, strict=True):
                if _uses_outside(region):
                    raise ValidationError(
                        op,
                        "is not conformant to the TOSA specification. It requires the "
                        f"'{name}' region is isolated from above.",
                    )


def _uses_outside(region: Region) -> bool:
    """Whether an op in `region` (nested regions included) reads a value defined outside."""
    ops = list(region.walk())
    blocks = [*region.blocks, *(b for o in ops for r in o.regions for b in r.blocks)]
    defined = {id(v) for o in ops for v in o.results} | {id(a) for b in blocks for a in b.args}
    return any(id(v) not in defined for o in ops for v in o.operands)


def _check_resize(op: tx.ResizeOp) -> None:
    scale = tosa._shape_values(op.scale)
    offset = tosa._shape_values(op.offset)
    border = tosa._shape_values(op.border)
    ins, outs = tosa.shape_of(op.input.type), tosa.shape_of(op.output.type)
    if ins is not None and outs is not None and -1 not in (*ins, *outs):
        dims = (outs[1], outs[2], ins[1], ins[2])
        if max(dims) >= 16384:
            raise ValidationError(
                op,
                "expect input/output height/width dims to be < 16384, got [OH, OW, IH, IW] = "
                + ", ".join(map(str, dims)),
            )
    if scale is None or len(scale) != 4:
        return
    y_n, y_d, x_n, x_d = scale
    if y_n > 1 << 11 or x_n > 1 << 11:
        raise ValidationError(
            op,
            f"expect all scale numerator values to be <= (1 << 11), got scale_y_n={y_n}, "
            f"scale_x_n={x_n}",
        )
    if y_d >= 16 * y_n or x_d >= 16 * x_n:
        raise ValidationError(
            op,
            f"expect a downscale ratio larger than 1/16, got y={y_n}/{y_d}, x={x_n}/{x_d}",
        )
    for values, what, low, high in ((offset, "offset", -1, 16), (border, "border", -16, 1)):
        if values is None or len(values) != 2:
            continue
        for axis, value, n in (("Y", values[0], y_n), ("X", values[1], x_n)):
            if value < low * n or value >= high * n:
                raise ValidationError(
                    op,
                    f"expect {what}{axis} / scale{axis}Numerator to be in range [{low}, {high}), "
                    f"got {value}/{n}",
                )


def _names(attr: Attribute | None, default: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(attr, ArrayAttr):
        return tuple(a.data for a in attr.data if isinstance(a, StringAttr))
    if isinstance(attr, StringAttr):
        return _split(attr.data)
    return default


def _storage(t: Attribute) -> Attribute:
    return tosa.storage_element(t)


def _size_in_bytes(t: TensorType) -> int:
    shape = t.get_shape()
    if any(d < 0 for d in shape):
        return 0
    count = 1
    for d in shape:
        count *= d
    e = _storage(t)
    bits = e.width.data if isinstance(e, IntegerType) else getattr(e, "bitwidth", 32)
    return (count * bits + 7) // 8
