"""Optional adapters to other document tools, each behind its own extra and imported only by
its own command (docling_export.py: ``pagereader export-docling``, the ``docling`` extra)."""
