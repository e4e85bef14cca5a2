"""Print and parse floating-point literals exactly as MLIR's textual IR does.

MLIR prints an f64 (a quant scale, for instance) in three tiers:

1. `%e`-like with six digits after the point (`1.000000e-02`) when parsing that
   text back yields the same bits;
2. otherwise APFloat's shortest-exact style: up to 17 significant digits,
   positional when the leading digit is at most three places after the point
   (`0.0078431372549019607`, `123456.7`), else scientific with a capital `E`
   (`1.23456789E-4`);
3. otherwise (tier 2 produced no `.`, e.g. `1234567`) the IEEE bits in hex,
   `0x4132D68700000000`.

The decimal expansion below is exact integer arithmetic, so the digits are the
ones LLVM's APFloat::toString computes (it rounds the exact expansion to the
requested precision, ties up).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = [
    "FLOAT_FORMATS",
    "double_bits",
    "double_from_bits",
    "float_bits",
    "float_from_bits",
    "format_mlir_double",
    "format_mlir_float",
]

_DOUBLE_PRECISION_BITS = 53


@dataclass(frozen=True)
class FloatFormat:
    """An IEEE-style binary format: significand bits (with the implicit one), exponent range, width.

    The formats of 8 bits or fewer (`f8E4M3FN`, `f4E2M1FN`, ...) also name the ml_dtypes type that encodes them
    (a dependency of onnx, so always installed): their NaN and infinity conventions
    differ per format (FN: no infinity; FNUZ: no -0, one NaN 0x80), and ml_dtypes
    converts to and from them with round-to-nearest-even as LLVM's APFloat does.
    """

    name: str
    precision: int
    min_exponent: int  # of the smallest normal number
    max_exponent: int
    width: int
    max_finite: float | None = None  # when not all of the top exponent is finite-or-special IEEE
    ml_dtype: str = ""


FLOAT_FORMATS = {
    "f16": FloatFormat("f16", 11, -14, 15, 16),
    "bf16": FloatFormat("bf16", 8, -126, 127, 16),
    "f32": FloatFormat("f32", 24, -126, 127, 32),
    "f64": FloatFormat("f64", 53, -1022, 1023, 64),
    "f8E5M2": FloatFormat("f8E5M2", 3, -14, 15, 8, 57344.0, "float8_e5m2"),
    "f8E4M3": FloatFormat("f8E4M3", 4, -6, 7, 8, 240.0, "float8_e4m3"),
    "f8E3M4": FloatFormat("f8E3M4", 5, -2, 3, 8, 15.5, "float8_e3m4"),
    "f8E4M3FN": FloatFormat("f8E4M3FN", 4, -6, 8, 8, 448.0, "float8_e4m3fn"),
    "f8E4M3FNUZ": FloatFormat("f8E4M3FNUZ", 4, -7, 7, 8, 240.0, "float8_e4m3fnuz"),
    "f8E5M2FNUZ": FloatFormat("f8E5M2FNUZ", 3, -15, 15, 8, 57344.0, "float8_e5m2fnuz"),
    "f8E4M3B11FNUZ": FloatFormat("f8E4M3B11FNUZ", 4, -10, 4, 8, 30.0, "float8_e4m3b11fnuz"),
    "f8E8M0FNU": FloatFormat("f8E8M0FNU", 1, -127, 127, 8, 2.0**127, "float8_e8m0fnu"),
    "f6E2M3FN": FloatFormat("f6E2M3FN", 4, 0, 2, 6, 7.5, "float6_e2m3fn"),
    "f6E3M2FN": FloatFormat("f6E3M2FN", 3, -2, 4, 6, 28.0, "float6_e3m2fn"),
    "f4E2M1FN": FloatFormat("f4E2M1FN", 2, 0, 2, 4, 6.0, "float4_e2m1fn"),
}


def ml_dtype(fmt: FloatFormat) -> np.dtype:
    """The numpy dtype (from ml_dtypes) that stores values of a format of 8 bits or fewer."""
    import ml_dtypes

    return np.dtype(getattr(ml_dtypes, fmt.ml_dtype))


def round_to_format(value: Fraction, fmt: FloatFormat) -> Fraction | None:
    """Nearest value of `fmt` to an exact rational (ties to even); None on overflow."""
    if value == 0:
        return Fraction(0)
    sign = -1 if value < 0 else 1
    r = abs(value)
    exponent = r.numerator.bit_length() - r.denominator.bit_length()
    if Fraction(2) ** exponent > r:
        exponent -= 1
    exponent = max(exponent, fmt.min_exponent)
    quantum = Fraction(2) ** (exponent - fmt.precision + 1)
    scaled = r / quantum
    m = math.floor(scaled)
    rest = scaled - m
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and m % 2 == 1):
        m += 1
    result = m * quantum
    if result >= Fraction(2) ** (fmt.max_exponent + 1) or (
        fmt.max_finite is not None and result > Fraction(fmt.max_finite)
    ):
        return None
    return sign * result


def float_bits(value: float, fmt: FloatFormat) -> int:
    """Bit pattern of `value` (exactly representable in `fmt`, or inf/nan) in that format."""
    if fmt.width == 64:
        return double_bits(value)
    if fmt.ml_dtype:
        return int(np.array([value], np.float64).astype(ml_dtype(fmt)).view(np.uint8)[0])
    f32 = struct.unpack("<I", struct.pack("<f", value))[0]
    if fmt.name == "f32":
        return f32
    if fmt.name == "bf16":
        return f32 >> 16
    return struct.unpack("<H", struct.pack("<e", value))[0]


def float_from_bits(bits: int, fmt: FloatFormat) -> float:
    """The value of a bit pattern of `fmt` as a Python float."""
    if fmt.width == 64:
        return double_from_bits(bits)
    if fmt.ml_dtype:
        mask = (1 << fmt.width) - 1
        return float(np.array([bits & mask], np.uint8).view(ml_dtype(fmt)).astype(np.float64)[0])
    if fmt.name == "f32":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if fmt.name == "bf16":
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def double_bits(value: float) -> int:
    """IEEE-754 bit pattern of a Python float."""
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def double_from_bits(bits: int) -> float:
    """Python float from an IEEE-754 double bit pattern."""
    return struct.unpack("<d", struct.pack("<Q", bits & 0xFFFFFFFFFFFFFFFF))[0]


def _decimal_digits(value: float, precision: int) -> tuple[str, int]:
    """Decimal digits of |value| > 0 as APFloat computes them: (digits, exp10).

    value ~= int(digits) * 10**exp10, digits without trailing zeros. The exact
    expansion N * 5^e * 10^-e is first truncated (not rounded) to the number of
    bits `precision` decimal digits need, as APFloat does; that truncation is why
    MLIR prints e.g. 1.0e-44 in the long form.
    """
    mantissa, exp2 = math.frexp(abs(value))
    significand = int(mantissa * (1 << _DOUBLE_PRECISION_BITS))
    exp2 -= _DOUBLE_PRECISION_BITS
    trailing = (significand & -significand).bit_length() - 1
    significand >>= trailing
    exp2 += trailing
    if exp2 >= 0:
        digits, exp10 = significand << exp2, 0
    else:
        # 2^-n == 5^n * 10^-n
        digits, exp10 = significand * 5 ** (-exp2), exp2
    bits_required = (precision * 196 + 58) // 59  # 196/59 slightly overestimates lg2(10)
    if digits.bit_length() > bits_required:
        removable = (digits.bit_length() - bits_required) * 59 // 196
        digits //= 10**removable
        exp10 += removable
    text = str(digits)
    stripped = text.rstrip("0")
    return stripped, exp10 + (len(text) - len(stripped))


def _round_digits(digits: str, exp10: int, precision: int) -> tuple[str, int]:
    """Keep `precision` significant digits, rounding on the first dropped digit (ties up)."""
    if len(digits) <= precision:
        return digits, exp10
    dropped = len(digits) - precision
    kept = digits[:precision]
    exp10 += dropped
    if digits[precision] >= "5":
        rounded = str(int(kept) + 1)
        if len(rounded) > precision:  # carried into a new leading digit
            rounded = rounded[:-1]
            exp10 += 1
        kept = rounded
    stripped = kept.rstrip("0")
    return stripped, exp10 + (len(kept) - len(stripped))


def _ap_to_string(
    value: float,
    precision: int,
    max_padding: int,
    truncate_zero: bool,
    semantics_precision: int = _DOUBLE_PRECISION_BITS,
) -> str:
    """APFloat::toString(precision, max_padding, truncate_zero) for a finite nonzero value."""
    if precision == 0:
        precision = 2 + semantics_precision * 59 // 196
    digits, exp10 = _round_digits(*_decimal_digits(value, precision), precision)
    sign = "-" if value < 0 else ""
    ndigits = len(digits)

    if max_padding == 0:
        scientific = True
    elif exp10 >= 0:
        scientific = exp10 > max_padding or ndigits + exp10 > precision
    else:
        msd = exp10 + ndigits - 1
        scientific = msd < 0 and -msd > max_padding

    if scientific:
        exponent = exp10 + ndigits - 1
        mantissa = digits[0] + "."
        if ndigits == 1 and truncate_zero:
            mantissa += "0"
        else:
            mantissa += digits[1:]
        if not truncate_zero and precision > ndigits - 1:
            mantissa += "0" * (precision - ndigits + 1)
        exp_text = str(abs(exponent))
        if not truncate_zero and len(exp_text) < 2:
            exp_text = "0" + exp_text
        marker = "E" if truncate_zero else "e"
        return f"{sign}{mantissa}{marker}{'+' if exponent >= 0 else '-'}{exp_text}"

    if exp10 >= 0:
        return sign + digits + "0" * exp10
    whole = exp10 + ndigits
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


def _reads_back(text: str, value: float, fmt: FloatFormat) -> bool:
    """Whether decimal `text` parses to `value` in `fmt` (round to nearest, ties to even).

    Python's float() rounds decimal text to f64 correctly, so f64 needs no rational
    arithmetic; for f32, rounding through f64 gives the direct rounding unless the f64
    lands exactly between two f32 values, the one case left to `round_to_format`. This
    is what makes printing many floats cheap (MLIR's first tier asks this per value)."""
    if fmt.name == "f64":
        return float(text) == value
    if fmt.name == "f32":
        wide = float(text)
        with np.errstate(over="ignore"):
            narrow = np.float32(wide)
        if float(narrow) == wide or not math.isfinite(narrow):
            return float(narrow) == value
        toward = np.float32(np.inf) if wide > float(narrow) else np.float32(-np.inf)
        with np.errstate(over="ignore"):  # past the largest f32 the neighbour is inf
            neighbour = float(np.nextafter(narrow, toward))
        if (float(narrow) + neighbour) / 2 != wide:  # not a tie: f64 rounding decided it
            return float(narrow) == value
    return round_to_format(Fraction(text), fmt) == Fraction(value)


def format_mlir_float(value: float, fmt: FloatFormat | str = "f64") -> str:
    """Text MLIR's AsmPrinter writes for a value of float type `fmt` (exact in that type)."""
    if isinstance(fmt, str):
        fmt = FLOAT_FORMATS[fmt]
    if math.isfinite(value) and value != 0.0:
        text = _ap_to_string(value, 6, 0, truncate_zero=False)
        if _reads_back(text, value, fmt):
            return text
        text = _ap_to_string(value, 0, 3, truncate_zero=True, semantics_precision=fmt.precision)
        if "." in text:
            return text
    elif value == 0.0:  # MLIR keeps the sign of zero: `-0.000000e+00`
        return "-0.000000e+00" if math.copysign(1.0, value) < 0 else "0.000000e+00"
    return f"0x{float_bits(value, fmt):0{fmt.width // 4}X}"


def format_mlir_double(value: float) -> str:
    """Text MLIR's AsmPrinter writes for an f64 value (e.g. a quant scale)."""
    return format_mlir_float(value, FLOAT_FORMATS["f64"])
