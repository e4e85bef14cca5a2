"""qdialect: a quantized neural-network compiler toolkit on xDSL.

Entry points for library users:

* `qdialect.context.make_context()` - a context with all project dialects;
* `qdialect.ir.parser.QParser` - the MLIR parser with located quant-type checks;
* `qdialect.dialects.quant` - `!quant.uniform` types and the quant cast ops;
* `qdialect.numerics` - the numeric contract (quantize, fixed-point requantization);
* `qdialect.transforms.get_all_passes()` - the pass registry.
"""

__version__ = "0.1.0"
