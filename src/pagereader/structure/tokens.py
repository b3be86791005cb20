"""Token counts of chunks, from a BPE vocabulary that ships inside the bpe-openai wheel
(o200k_base, cl100k_base): counting never reaches the network, so it works offline and in an
air-gapped batch. One encoder per vocabulary and process: importing the library and loading a
vocabulary take about half a CPU-second, paid on the first count (a run that writes no chunks
never pays it)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from pagereader.options import ChunkTokenizer

TokenCounter = Callable[[str], int]

_LOCK = threading.Lock()
_COUNTERS: dict[str, TokenCounter] = {}


def token_counter(name: ChunkTokenizer = "o200k_base") -> TokenCounter:
    """A function counting the tokens of a text in the vocabulary ``name`` (loaded once per
    process; a caller arriving while another thread loads it waits for that load)."""
    with _LOCK:
        if name not in _COUNTERS:
            import bpe_openai

            encoding = bpe_openai.get_encoding(name)

            def count(text: str) -> int:
                # "<|endoftext|>" is text here, not a special token
                return len(encoding.encode_ordinary(text)) if text else 0

            _COUNTERS[name] = count
        return _COUNTERS[name]
