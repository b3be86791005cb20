"""Text and Unicode utilities: normalization, scripts, bidi, mojibake, hyphens, tables as text."""
