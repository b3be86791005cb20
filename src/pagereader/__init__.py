"""pagereader: slide decks, PDFs and scans into faithful Markdown and JSON.

>>> import pagereader
>>> result = pagereader.parse("deck.pdf")
>>> result.status, result.markdown[:40]
"""

from pagereader.config_file import load_config
from pagereader.errors import PagereaderError
from pagereader.options import Options
from pagereader.pipeline import aparse, aparse_to_folder, make_context, parse
from pagereader.types import (
    Block,
    BlockResult,
    DocumentResult,
    ErrorItem,
    PageDecision,
    PageResult,
    Verdict,
)

__all__ = [
    "Block",
    "BlockResult",
    "DocumentResult",
    "ErrorItem",
    "Options",
    "PageDecision",
    "PageResult",
    "PagereaderError",
    "Verdict",
    "aparse",
    "aparse_to_folder",
    "load_config",
    "make_context",
    "parse",
]
