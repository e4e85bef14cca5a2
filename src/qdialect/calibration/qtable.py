"""Per-op precision for mixed-precision quantization: the qtable file
`stablehlo-quantize{qtable=FILE}` reads and the sensitivity search
(`qdialect.calibration.mixed`) writes.

One op per line, `<tensor> <precision>`; `#` starts a comment:

    # qdialect qtable
    14:0   i16        # the op whose result has calibration key 14:0
    /features/17/conv/conv.2/Conv_output_0  float

`<tensor>` names the op by one of its results: the calibration key (`"i:j"`, result j of
the i-th op of the function, as in the calibration file) or the tensor's name (the
model's tensor name the importer puts in the op's location). `<precision>`:

* `i8` — the default: nothing changes;
* `i16` — the op's input and output activations on 16-bit storage (weights stay 8-bit,
  as TFLite's 16x8 mode has them); a value shared with other ops (a concat's operands, a
  ReLU's input) widens for all of them;
* `float` — the op is not quantized: it reads dequantized values and its result is
  quantized only where a quantized op reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import NameLoc
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from qdialect.calibration.calibrate import CalibrationError, tensor_keys

PRECISIONS = ("i8", "i16", "float")


@dataclass
class QTable:
    """Selector -> precision, in file order."""

    entries: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str, source: str = "<qtable>") -> QTable:
        table = cls()
        for n, line in enumerate(text.splitlines(), 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) != 2 or words[1] not in PRECISIONS:
                raise CalibrationError(
                    f"{source}:{n}: expected '<tensor> <precision>' with precision one of "
                    f"{', '.join(PRECISIONS)}, got '{line.strip()}'"
                )
            table.entries[words[0]] = words[1]
        return table

    @classmethod
    def load(cls, path: Path) -> QTable:
        try:
            text = Path(path).read_text()
        except OSError as err:
            raise CalibrationError(f"cannot read qtable '{path}': {err}") from None
        return cls.parse(text, str(path))

    def to_text(self, comment: str = "") -> str:
        head = "# qdialect qtable: <tensor> <precision>\n"
        head += "".join(f"# {line}\n" for line in comment.splitlines())
        width = max((len(k) for k in self.entries), default=0)
        return head + "".join(f"{k:<{width}}  {p}\n" for k, p in self.entries.items())

    def save(self, path: Path, comment: str = "") -> None:
        Path(path).write_text(self.to_text(comment))

    def resolve(self, func: FuncOp) -> dict[Operation, str]:
        """The op each line names, with its precision; a name found nowhere is an error."""
        by_selector: dict[str, Operation] = {}
        for value, key in tensor_keys(func).items():
            owner = value.owner
            if not isinstance(owner, Operation):
                continue
            by_selector[key] = owner
            if isinstance(owner.location, NameLoc):
                by_selector.setdefault(owner.location.desc.data, owner)
        out: dict[Operation, str] = {}
        for selector, precision in self.entries.items():
            op = by_selector.get(selector)
            if op is None:
                raise CalibrationError(
                    f"qtable: no op result '{selector}' in @{func.sym_name.data} "
                    "(a calibration key 'i:j' or a tensor name)"
                )
            out[op] = precision
        return out
