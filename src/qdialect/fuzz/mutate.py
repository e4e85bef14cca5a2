"""Mutations of the tools' inputs, each driven by a `random.Random` so a seed (or
Hypothesis, which supplies and shrinks the Random) reproduces a case exactly.

Text mutations know the shape of MLIR and assembly (numbers, brackets, tokens that
stress parsers); byte mutations know little-endian integers (flatbuffer offsets,
lengths); the ONNX, JSON and npz mutations edit the structure and re-serialise, so
they reach validation code that random bytes rarely get past.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
import struct
import zipfile
from typing import Any

INTERESTING_NUMBERS = (
    "0", "-1", "1", "7", "127", "128", "255", "256", "300", "-129", "32767", "65536",
    "2147483647", "2147483648", "4294967296", "-9223372036854775809", "99999999999999999999",
    "1099511627776", "0.0", "-0.0", "1e-45", "1e39", "1e400", "nan", "inf", "-inf", "0x7fffffff",
)  # fmt: skip

INTERESTING_TOKENS = (
    "tensor<", ">", "<", "{", "}", "(", ")", "[", "]", '"', "\\", ",", ":", "%0", "%arg0",
    "^bb0", "dense<", "dense<>", "dense<300>", "dense<[1, 2]>", "i128", "complex<f32>", "i1",
    "f64", "!quant.uniform<i8:f32, 0.0>", "!quant.uniform<i8:f32:9, {1.0}>", "x?x", "0x",
    "// -----", "#loc", "loc(", "func.func", "return", "builtin.module", "0xFFFFFFFF",
    "tensor<0xi8>", "tensor<99999999999x99999999999xi8>", "\x00", "\xff", "\u00e9",
)  # fmt: skip

_NUMBER = re.compile(r"-?\b\d+(?:\.\d+)?(?:e[-+]?\d+)?\b")
_INTERESTING_INTS = (0, 1, -1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF)
_REPEAT_LIMIT = 4000  # long enough to expose quadratic or recursive parsing


def mutate_text(rng: random.Random, text: str, rounds: int | None = None) -> str:
    """1-4 (or `rounds`) edits of a text input; one edit half the time, so most cases stay
    close enough to valid to reach the verifiers and passes."""
    for _ in range(rounds if rounds is not None else _edit_count(rng)):
        text = _TEXT_EDITS[rng.randrange(len(_TEXT_EDITS))](rng, text)
    return text


def _edit_count(rng: random.Random) -> int:
    return 1 if rng.random() < 0.5 else rng.randint(2, 4)


def _replace_number(rng: random.Random, text: str) -> str:
    numbers = list(_NUMBER.finditer(text))
    if not numbers:
        return text
    m = numbers[rng.randrange(len(numbers))]
    return text[: m.start()] + rng.choice(INTERESTING_NUMBERS) + text[m.end() :]


def _insert_token(rng: random.Random, text: str) -> str:
    at = rng.randint(0, len(text))
    return text[:at] + rng.choice(INTERESTING_TOKENS) + text[at:]


def _repeat_token(rng: random.Random, text: str) -> str:
    at = rng.randint(0, len(text))
    token = rng.choice(("tensor<", "(", "[", "{", '"', "<", "dense<[", "!quant.uniform<"))
    return text[:at] + token * rng.randint(100, _REPEAT_LIMIT) + text[at:]


def _delete_span(rng: random.Random, text: str) -> str:
    if not text:
        return text
    start = rng.randrange(len(text))
    return text[:start] + text[start + rng.randint(1, 64) :]


def _duplicate_span(rng: random.Random, text: str) -> str:
    if not text:
        return text
    start = rng.randrange(len(text))
    end = min(len(text), start + rng.randint(1, 200))
    at = rng.randint(0, len(text))
    return text[:at] + text[start:end] + text[at:]


def _swap_lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[: rng.randint(0, len(text))]


def _replace_char(rng: random.Random, text: str) -> str:
    if not text:
        return text
    at = rng.randrange(len(text))
    return (
        text[:at] + chr(rng.choice((0, 9, 10, 34, 37, 60, 62, 92, 0xE9, 0x2028))) + text[at + 1 :]
    )


_TEXT_EDITS = (
    _replace_number,
    _replace_number,
    _insert_token,
    _insert_token,
    _repeat_token,
    _delete_span,
    _duplicate_span,
    _swap_lines,
    _truncate,
    _replace_char,
)


def mutate_bytes(rng: random.Random, data: bytes, rounds: int | None = None) -> bytes:
    """1-4 (or `rounds`) edits of a binary input: bit flips, interesting little-endian
    integers (flatbuffers store offsets and lengths as u32), spans cut or repeated."""
    buf = bytearray(data)
    for _ in range(rounds if rounds is not None else _edit_count(rng)):
        if not buf:
            buf = bytearray(rng.randbytes(rng.randint(1, 64)))
            continue
        edit = rng.randrange(6)
        at = rng.randrange(len(buf))
        if edit == 0:
            buf[at] ^= 1 << rng.randrange(8)
        elif edit == 1:
            buf[at] = rng.choice((0, 1, 0x7F, 0x80, 0xFF))
        elif edit == 2 and len(buf) >= 4:
            at = rng.randrange(0, len(buf) - 3) & ~3
            value = rng.choice(_INTERESTING_INTS) & 0xFFFFFFFF
            buf[at : at + 4] = struct.pack("<I", value)
        elif edit == 3:
            del buf[at : at + rng.randint(1, 64)]
        elif edit == 4:
            buf[at:at] = buf[at : at + rng.randint(1, 64)]
        else:
            del buf[rng.randint(0, len(buf)) :]
    return bytes(buf)


# ---------------------------------------------------------------- structured inputs


def _interesting_value(rng: random.Random) -> Any:
    return rng.choice(
        (0, -1, 1, 2**31, 2**40, 2**64, -(2**40), 0.0, -0.5, math.nan, math.inf, "x", None, [], {})
    )


def mutate_json(rng: random.Random, text: str) -> str:
    """Replace or delete a random field of a JSON document (or edit its text)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return mutate_text(rng, text)
    if rng.random() < 0.2:
        return mutate_text(rng, text)
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append((node, key))
                walk(value)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                paths.append((node, index))
                walk(value)

    walk(doc)
    for _ in range(rng.randint(1, 3)):
        if not paths:
            break
        parent, key = paths[rng.randrange(len(paths))]
        if isinstance(parent, dict) and rng.random() < 0.25:
            parent.pop(key, None)
        elif isinstance(parent, dict) or key < len(parent):
            parent[key] = _interesting_value(rng)
    return json.dumps(doc)


def mutate_npz(rng: random.Random, arrays: dict[str, Any]) -> bytes:
    """An .npz of the given arrays with one made hostile: wrong dtype or shape, a
    declared shape far larger than the data, a missing or extra member; or raw byte edits
    of a well-formed archive."""
    import numpy as np

    arrays = dict(arrays)
    names = list(arrays)
    choice = rng.randrange(6)
    if choice == 0 and names:
        arrays.pop(rng.choice(names))
    elif choice == 1 and names:
        name = rng.choice(names)
        arrays[name] = arrays[name].astype(rng.choice((np.float32, np.int64, np.uint8, np.bool_)))
    elif choice == 2 and names:
        name = rng.choice(names)
        arrays[name] = np.zeros(rng.choice(((0,), (1,), (3, 5), (1, 1, 1, 1, 1))), np.int8)
    elif choice == 3:
        arrays["extra"] = np.zeros(2, np.int8)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, array in arrays.items():
            member = io.BytesIO()
            np.save(member, array)
            payload = member.getvalue()
            if choice == 4:  # declare a huge shape in the .npy header
                payload = re.sub(rb"'shape': \([^)]*\)", b"'shape': (1099511627776, 4096)", payload)
            archive.writestr(f"{name}.npy", payload)
    data = buffer.getvalue()
    return mutate_bytes(rng, data) if choice == 5 else data


def mutate_onnx(rng: random.Random, data: bytes) -> bytes:
    """Structural edits of an ONNX model: attributes dropped, shortened or set to extreme
    values; quantization parameters zeroed, NaN or negative; inputs renamed (dangling
    names, cycles); outputs removed; dims made huge; or raw byte edits."""
    import onnx

    if rng.random() < 0.15:
        return mutate_bytes(rng, data)
    try:
        return _edit_onnx(rng, onnx.load_from_string(data))
    except Exception:  # an edit the protobuf or numpy helpers refuse: edit bytes instead
        return mutate_bytes(rng, data)


def _edit_onnx(rng: random.Random, model: Any) -> bytes:
    import onnx
    from onnx import numpy_helper

    graph = model.graph
    for _ in range(rng.randint(1, 3)):
        edit = rng.randrange(8)
        nodes = list(graph.node)
        if edit == 0 and nodes:
            node = rng.choice(nodes)
            if node.attribute:
                attr = rng.choice(list(node.attribute))
                if rng.random() < 0.4:
                    node.attribute.remove(attr)
                elif attr.ints:
                    values = list(attr.ints)
                    if rng.random() < 0.5:
                        del attr.ints[rng.randrange(len(values)) :]
                    else:
                        attr.ints[rng.randrange(len(values))] = rng.choice(
                            (0, -1, 2**40, 2**31, -(2**31))
                        )
                elif attr.type == onnx.AttributeProto.INT:
                    attr.i = rng.choice((0, -1, 2**40, 7, -7))
                elif attr.type == onnx.AttributeProto.FLOAT:
                    attr.f = rng.choice((0.0, -1.0, math.nan, math.inf))
        elif edit == 1 and graph.initializer:
            init = rng.choice(list(graph.initializer))
            array = numpy_helper.to_array(init).copy()
            if array.size and array.dtype.kind in "fiu":
                flat = array.reshape(-1)
                flat[rng.randrange(flat.size)] = rng.choice(
                    (0, -1, math.nan, math.inf) if array.dtype.kind == "f" else (0, 1, -1, 127)
                )
            elif array.size == 0:
                array = array.reshape(-1)
            if rng.random() < 0.3:
                array = array.reshape(-1)[: rng.randint(0, array.size)]
            init.CopyFrom(numpy_helper.from_array(array, init.name))
        elif edit == 2 and nodes:
            node = rng.choice(nodes)
            if node.input:
                index = rng.randrange(len(node.input))
                names = [o for n in nodes for o in n.output] + ["missing_tensor", ""]
                node.input[index] = rng.choice(names)
        elif edit == 3 and graph.output:
            graph.output.remove(rng.choice(list(graph.output)))
        elif edit == 4:
            values = list(graph.input) + list(graph.output) + list(graph.value_info)
            if values:
                value = rng.choice(values)
                dims = value.type.tensor_type.shape.dim
                if dims:
                    dims[rng.randrange(len(dims))].dim_value = rng.choice((0, 2**40, 2**31, 1))
        elif edit == 5 and nodes:
            node = rng.choice(nodes)
            if node.input:
                del node.input[rng.randrange(len(node.input))]
        elif edit == 6 and nodes:
            node = rng.choice(nodes)
            node.op_type = rng.choice(("Conv", "AveragePool", "Transpose", "Resize", "Gemm", "X"))
        elif edit == 7 and graph.initializer:
            init = rng.choice(list(graph.initializer))
            init.data_type = rng.choice((1, 2, 3, 6, 7, 10, 16, 99))
    return model.SerializeToString()
