"""Views of a page: Markdown, JSON, overlays, review.md."""
