"""Which registered dialects are closed to names they do not define."""

#: Dialects this project defines whole. As in MLIR, `--allow-unregistered-dialect` admits
#: names of dialects nobody registered, not unknown names inside a registered dialect:
#: `"stablehlo.foo"()` and `!stablehlo.foobar` stay errors, worded as MLIR's dialects word
#: them (`qdialect.ir.parser`). The dialects taken from xDSL (`arith`, `func`, `math`,
#: `tensor`) define fewer ops than MLIR's, so their unknown names are still admitted as
#: unregistered rather than refused.
CLOSED_DIALECTS = frozenset(
    {"builtin", "check", "chlo", "interpreter", "npu", "quant", "stablehlo", "tosa"}
)
