"""Document structure: a statute's or contract's headings and articles as a tree (tree.py),
from the numbering each language prints (numbering.py)."""
