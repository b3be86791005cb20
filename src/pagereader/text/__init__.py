"""Text and Unicode utilities: normalization, scripts, bidi, mojibake, hyphens, tables as text,
Han forms in Taiwan standard."""
