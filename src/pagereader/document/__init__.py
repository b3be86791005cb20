"""The document layer: read pages to the finished document, and the document to its outputs."""
