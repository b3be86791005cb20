"""Optional adapters that put pagereader where its users work, each behind its own extra."""
