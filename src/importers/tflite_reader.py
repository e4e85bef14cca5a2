"""The parts of reading a TFLite flatbuffer that the int8 and the float importers share.

`TFLiteReader` holds the model's first subgraph and its tensors (shape, type, quantization,
constant data, each checked as it is read), names operators, lists the kinds without a rule
in one error, works out TFLite's SAME/VALID padding, folds the shape arithmetic Keras'
unknown batch size leaves (SHAPE, PACK, STRIDED_SLICE of constants), and runs each operator
through its `_op_<kind>` method inside the diagnostics guard. What an operator becomes is
the subclass's: `tflite.py` builds TOSA integer programs from int8 models, `tflite_float.py`
float StableHLO from float32 ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Self

import numpy as np
from xdsl.utils.exceptions import VerifyException

from qdialect.importers import tflite_check
from qdialect.importers.emitter import Emitter, Value
from qdialect.importers.tflite_check import TFLiteImportError


def _schema():
    try:
        from qdialect.importers import tflite_schema

        return tflite_schema.schema()
    except ImportError:  # pragma: no cover - depends on the environment
        raise TFLiteImportError(
            "reading .tflite files needs the small `tflite` schema package "
            "(pip install 'qdialect[tflite]')"
        ) from None


@dataclass
class Tensor:
    """One tensor of the subgraph: its quantization (None for float) and constant data."""

    name: str
    shape: tuple[int, ...]
    dtype: int
    scale: np.ndarray | None
    zero_point: np.ndarray | None
    axis: int
    data: np.ndarray | None
    unsigned: bool = False  # a uint8 tensor, held as int8 (value and zero point - 128)


def _type_name(t: int, s) -> str:
    names = {v: k for k, v in vars(s.TensorType).items() if k.isupper()}
    return names.get(t, str(t))


class TFLiteReader:
    """A TFLite model's first subgraph, its tensors read and checked; subclasses emit."""

    def __init__(self, data: bytes):
        self.s = _schema()
        if len(data) < 8 or data[4:8] != b"TFL3":
            raise TFLiteImportError("not a TFLite flatbuffer (no 'TFL3' identifier)")
        try:
            from qdialect.importers.tflite_schema import load_model

            self.model = load_model(data)
        except Exception as err:  # the generated readers raise struct/index errors
            raise TFLiteImportError(f"malformed TFLite flatbuffer: {err}") from None
        self.raw = data
        if not self.model.subgraphs:
            raise TFLiteImportError("the model has no subgraph")
        self.graph = self.model.subgraphs[0]
        tflite_check.indices(self.graph, len(self.graph.tensors or []))
        self.tensors = [self._tensor(i, t) for i, t in enumerate(self.graph.tensors or [])]
        self.e = Emitter()
        self.values: dict[int, Value] = {}  # tensor index -> the value computing it
        self.folded: set[int] = set()  # tensors computed from constants at import

    @classmethod
    def adopt(cls, reader: TFLiteReader) -> Self:
        """The model `reader` has read, emitted by this subclass (read once, then the
        importer is chosen by what the model holds)."""
        importer = cls.__new__(cls)
        importer.__dict__.update(reader.__dict__)
        return importer

    # ---- tensors ----------------------------------------------------------------------

    def _tensor(self, index: int, t) -> Tensor:
        shape = tuple(int(d) for d in (t.shape if t.shape is not None else []))
        tflite_check.shape(index, shape)
        signature = getattr(t, "shapeSignature", None)
        if signature is not None and any(int(d) < 0 for d in list(signature)[1:]):
            # A dynamic batch imports at the declared one (LiteRT runs it so unless
            # resized); other dynamic axes would silently fix a size the user varies.
            raise TFLiteImportError(
                f"tensor {index} has dynamic axes {[int(d) for d in signature]} (declared "
                f"{list(shape)}): qimport needs static shapes; convert with a fixed input size"
            )
        q = t.quantization
        scale = zp = None
        axis = 0
        if q is not None and q.scale is not None and len(q.scale):
            scale = np.asarray(q.scale, np.float32)
            zp = np.asarray(q.zeroPoint if q.zeroPoint is not None else [], np.int64)
            axis = int(q.quantizedDimension)
            storage = {self.s.TensorType.INT8: (-128, 127), self.s.TensorType.UINT8: (0, 255)}
            tflite_check.quantization(index, scale, zp, axis, shape, storage.get(t.type))
        data = None
        buffers = self.model.buffers or []
        if t.buffer >= len(buffers):
            raise TFLiteImportError(f"tensor {index} names buffer {t.buffer} of {len(buffers)}")
        buf = buffers[t.buffer]
        raw = None
        if buf.data is not None and len(buf.data):
            raw = np.asarray(buf.data, np.uint8).tobytes()
        elif buf.offset and buf.offset > 1:
            if buf.offset + buf.size > len(self.raw):
                raise TFLiteImportError(f"buffer {t.buffer} lies outside the file")
            raw = self.raw[buf.offset : buf.offset + buf.size]
        if raw is not None:
            dtype = {self.s.TensorType.INT8: np.int8, self.s.TensorType.UINT8: np.uint8,
                     self.s.TensorType.INT32: np.int32, self.s.TensorType.FLOAT32: np.float32,
                     self.s.TensorType.INT64: np.int64,
                     self.s.TensorType.FLOAT16: np.float16}.get(t.type)  # fmt: skip
            if dtype is None:
                raise TFLiteImportError(
                    f"tensor {index} holds unsupported type {_type_name(t.type, self.s)}"
                )
            if len(raw) != math.prod(shape) * np.dtype(dtype).itemsize:
                raise TFLiteImportError(
                    f"tensor {index}: buffer of {len(raw)} bytes for shape {list(shape)}"
                )
            data = np.frombuffer(raw, dtype).reshape(shape)
        name = t.name.decode(errors="replace") if isinstance(t.name, bytes) else str(t.name)
        unsigned = t.type == self.s.TensorType.UINT8 and zp is not None
        if (
            unsigned and zp is not None
        ):  # q - zp is unchanged when both move down by 128: one int8 program
            zp = zp - 128
            if data is not None:
                data = (data.astype(np.int16) - 128).astype(np.int8)
        return Tensor(name, shape, t.type, scale, zp, axis, data, unsigned)

    def _kind(self, n: int, op) -> str:
        codes = self.model.operatorCodes or []
        if op.opcodeIndex >= len(codes):
            raise TFLiteImportError(f"operator {n} names operator code {op.opcodeIndex}")
        code = codes[op.opcodeIndex]
        builtin = max(int(code.builtinCode), int(code.deprecatedBuiltinCode))
        names = {v: k for k, v in vars(self.s.BuiltinOperator).items() if k.isupper()}
        return names.get(builtin, str(builtin))

    def _output_name(self, n: int, op) -> str:
        """The location of operator n's ops: its first output tensor's name."""
        outputs = [int(i) for i in (op.outputs if op.outputs is not None else [])]
        if outputs and 0 <= outputs[0] < len(self.tensors) and self.tensors[outputs[0]].name:
            return self.tensors[outputs[0]].name
        return f"operator {n}"

    def _check_supported(self, peeled: set[int]) -> None:
        """Every operator kind the importer has no rule for, in one message: how many
        operators of each, and the first one, so a single run tells the user all that is
        missing."""
        missing: dict[str, list[tuple[int, str]]] = {}
        for n, op in enumerate(self.graph.operators or []):
            if n in peeled:
                continue
            kind = self._kind(n, op)
            if getattr(self, f"_op_{kind.lower()}", None) is None:
                missing.setdefault(kind, []).append((n, self._output_name(n, op)))
        if missing:
            lines = [
                f"  {kind}: {len(ops)} operator{'s' if len(ops) > 1 else ''}, "
                f"first operator {ops[0][0]} ('{ops[0][1]}')"
                for kind, ops in sorted(missing.items())
            ]
            raise TFLiteImportError(
                f"{len(missing)} unsupported operator type{'s' if len(missing) > 1 else ''}:\n"
                + "\n".join(lines)
            )

    def _io(self, op, count: int) -> tuple[list[int], int]:
        inputs = [int(i) for i in op.inputs]
        if len(op.outputs) != 1 or len(inputs) < count:
            raise TFLiteImportError(f"expects {count} inputs and one output")
        return inputs, int(op.outputs[0])

    def _padding(self, padding: int, size: Sequence[int], kernel: Sequence[int],
                 stride: Sequence[int], dilation: Sequence[int]) -> list[int]:  # fmt: skip
        if padding == self.s.Padding.VALID:
            return [0, 0, 0, 0]
        pads = []
        for n, k, st, d in zip(size, kernel, stride, dilation, strict=True):
            out = -(-n // st)
            total = max((out - 1) * st + (k - 1) * d + 1 - n, 0)
            pads += [total // 2, total - total // 2]
        return pads

    @staticmethod
    def _filter_fits(kind: str, x: tuple[int, ...], w: tuple[int, ...], n_out: int) -> None:
        """The filter's shape fits the input's channels and the output's (TFLite's layouts:
        FULLY_CONNECTED [out, in], CONV_2D [out, kh, kw, in], DEPTHWISE_CONV_2D [1, kh, kw,
        in x multiplier])."""
        if kind == "FULLY_CONNECTED":
            fits = w[0] == n_out and w[1] > 0 and math.prod(x) % w[1] == 0
        elif kind == "CONV_2D":
            fits = w[0] == n_out and w[3] == x[3]
        else:
            fits = w[3] == n_out and x[3] > 0 and n_out % x[3] == 0
        if not fits:
            raise TFLiteImportError(
                f"filter {list(w)} does not fit input {list(x)} and {n_out} output channels"
            )

    def _fold(self, out_index: int, value: np.ndarray) -> None:
        t = self.tensors[out_index]
        t.data = np.asarray(value).astype({self.s.TensorType.INT64: np.int64}.get(t.dtype,
                                                                                  np.int32))  # fmt: skip
        self.folded.add(out_index)

    def _op_shape(self, op, kind: str) -> None:
        """The static shape of a tensor: a constant."""
        self._fold(int(op.outputs[0]), np.array(self.tensors[int(op.inputs[0])].shape))

    def _constant(self, index: int) -> np.ndarray:
        data = self.tensors[index].data
        if data is None:
            raise TFLiteImportError(f"tensor {index} must be a constant here")
        return data

    def _op_pack(self, op, kind: str) -> None:
        """PACK of constants (shape arithmetic): folded."""
        axis = int(getattr(op.builtinOptions, "axis", 0))
        values = [self._constant(int(i)) for i in op.inputs]
        self._fold(int(op.outputs[0]), np.stack(values, axis=axis))

    def _slice_spec(self, op, shape: tuple[int, ...]) -> tuple[list[int], list[int], list[int],
                                                                list[int]]:  # fmt: skip
        """STRIDED_SLICE's (begin, end, strides, shrunk axes) after its masks, clamped."""
        o = op.builtinOptions
        if (
            getattr(o, "ellipsisMask", 0)
            or getattr(o, "newAxisMask", 0)
            or getattr(o, "offset", False)
        ):
            raise TFLiteImportError("ellipsis, new-axis and offset masks are not supported")
        begin, end, strides = (
            [int(v) for v in self._constant(int(op.inputs[i])).reshape(-1)] for i in (1, 2, 3)
        )
        if not len(begin) == len(end) == len(strides) == len(shape) or 0 in strides:
            raise TFLiteImportError("begin, end and strides must cover every axis")
        shrunk = []
        for axis, d in enumerate(shape):
            if strides[axis] < 0:
                raise TFLiteImportError("negative strides are not supported")
            b, e = begin[axis], end[axis]
            b = 0 if o.beginMask >> axis & 1 else (b + d if b < 0 else b)
            e = d if o.endMask >> axis & 1 else (e + d if e < 0 else e)
            if o.shrinkAxisMask >> axis & 1:
                e, strides[axis] = b + 1, 1
                shrunk.append(axis)
            begin[axis], end[axis] = min(max(b, 0), d), min(max(e, 0), d)
            end[axis] = max(end[axis], begin[axis])
        return begin, end, strides, shrunk

    @staticmethod
    def _split_sizes(length: int, count: int, sizes: list[int] | None) -> list[int]:
        """SPLIT's equal parts (`sizes` None) or SPLIT_V's sizes (one may be -1: the rest),
        checked to divide an axis of `length` into `count` outputs."""
        if sizes is None:
            if length % count:
                raise TFLiteImportError(f"{length} does not split in {count}")
            return [length // count] * count
        sizes = list(sizes)
        if -1 in sizes:
            sizes[sizes.index(-1)] = length - (sum(sizes) + 1)
        if len(sizes) != count or sum(sizes) != length or min(sizes) < 0:
            raise TFLiteImportError(f"split sizes {sizes} do not divide {length}")
        return sizes

    def _emit_operators(self, skip: set[int]) -> None:
        """Each operator not in `skip` through its `_op_<kind>` method, located at its first
        output tensor, its ops verified at the shapes the model declares."""
        for n, op in enumerate(self.graph.operators or []):
            if n in skip:
                continue
            kind = self._kind(n, op)
            with tflite_check.guard(n, kind), self.e.at(self._output_name(n, op)):
                tflite_check.operator(op, kind)
                mark = self.e.mark()
                getattr(self, f"_op_{kind.lower()}")(op, kind)
                try:
                    self.e.verify_since(mark)
                except VerifyException as err:
                    message = str(err).splitlines()[0]
                    raise TFLiteImportError(f"the model's shapes do not fit: {message}") from None
