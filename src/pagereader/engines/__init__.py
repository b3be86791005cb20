"""Engines: what reads a block (the text layer, the embedded OCR, served VLMs), by name."""
