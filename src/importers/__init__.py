"""Importers of quantized models from other frameworks."""
