"""Finding where a quantized model loses accuracy: stages compared tensor by tensor, subgraph cuts, sensitivity (docs/debugging.md)."""
