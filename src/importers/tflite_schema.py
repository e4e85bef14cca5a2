"""Reading a .tflite flatbuffer with the small `tflite` package (the schema's generated
accessors; it needs only `flatbuffers` and numpy), into the object tree the importer
walks.

The generated accessors read one field at a time (`op.BuiltinOptions()`,
`tensor.Shape(j)`); `unpack` turns a table into a namespace whose fields are named as
TFLite's object API names them (`strideW`, `fusedActivationFunction`, `builtinOptions`,
`quantizedDimension`...), vectors as lists (or numpy arrays for scalar vectors), unions
as the table their type names (its name in the namespace's `table`). Flatbuffer offsets only point forward, so the tree has
no cycles; a malformed file raises from the accessors, which the importer reports.
"""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

import numpy as np

_SKIP_SUFFIXES = ("BufferHasIdentifier", "AsNumpy", "Length", "IsNone")


def schema() -> ModuleType:
    """The `tflite` package: the schema's tables and enums (`TensorType.INT8`...)."""
    import tflite

    return tflite


def _union(module: ModuleType, obj, name: str):
    """The table a union field holds, as the class its type names (None when empty)."""
    kind = getattr(obj, f"{name}Type")()
    table = getattr(obj, name)()
    if not kind or table is None:
        return None
    enum = getattr(module, name)  # e.g. tflite.BuiltinOptions: the union's type enum
    names = {v: k for k, v in vars(enum).items() if not k.startswith("_")}
    cls = getattr(module, names.get(kind, ""), None)
    if cls is None:
        return None
    value = cls()
    value.Init(table.Bytes, table.Pos)
    fields = unpack(module, value)
    fields.table = names[kind]  # which table the union holds, e.g. "Conv2DOptions"
    return fields


def _value(module: ModuleType, value):
    if hasattr(value, "_tab"):  # a nested table
        return unpack(module, value)
    return value


def unpack(module: ModuleType, obj) -> SimpleNamespace:
    """Every field of flatbuffer table `obj`, recursively, under object-API names."""
    cls = type(obj)
    fields = SimpleNamespace()
    for name, fn in vars(cls).items():
        if not callable(fn) or name[0] == "_" or name.startswith(("GetRootAs", "Init")):
            continue
        if name.endswith(_SKIP_SUFFIXES):
            continue
        if name.endswith("Type") and name[:-4] in vars(cls) and hasattr(module, name[:-4]):
            continue  # a union's type: read with the union below
        field = name[0].lower() + name[1:]
        if f"{name}Type" in vars(cls) and hasattr(module, name):
            setattr(fields, field, _union(module, obj, name))
        elif f"{name}Length" in vars(cls):  # a vector
            if getattr(obj, f"{name}IsNone")():
                setattr(fields, field, None)
                continue
            array = getattr(obj, f"{name}AsNumpy", lambda: 0)()
            if isinstance(array, np.ndarray):
                setattr(fields, field, array)
            else:
                count = getattr(obj, f"{name}Length")()
                setattr(fields, field, [_value(module, fn(obj, j)) for j in range(count)])
        else:
            setattr(fields, field, _value(module, fn(obj)))
    return fields


def load_model(data: bytes) -> SimpleNamespace:
    """The model in `data` as an object tree (see the module docstring)."""
    module = schema()
    return unpack(module, module.Model.GetRootAs(data, 0))
