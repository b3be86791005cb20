"""Document structure: a statute's or contract's headings and articles as a tree (tree.py),
from the numbering each language prints (numbering.py); heading levels and paths
(headings.py); the document in chunks for a search index with their provenance (chunks.py,
over the pages joined across breaks in joined.py, grouped in sections.py, cut in split.py,
counted in tokens.py)."""
