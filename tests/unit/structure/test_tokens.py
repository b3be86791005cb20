"""Token counts: the wheel's compiled tokenizer, loaded on its own, counts as the package's
public API does, without the package's import-time decoding of every vocabulary."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pagereader.config.options import ChunkTokenizer
from pagereader.structure.tokens import token_counter

TEXTS = [
    "Hello world, this is a chunk.",
    "第二章 人民之權利義務 第七條 中華民國人民，無分男女、宗教、種族、階級、黨派，"
    "在法律上一律平等。",
    "제2장 국민의 권리와 의무 제10조 모든 국민은 인간으로서의 존엄과 가치를 가지며,",
    "<|endoftext|> is text here, not a special token",
    "  spaces\n\n\tand   tabs  ",
    "x" * 3000,
]


@pytest.mark.parametrize("name", ["o200k_base", "cl100k_base"])
def test_counts_match_the_packages_encoder(name: ChunkTokenizer) -> None:
    import bpe_openai

    encoding = bpe_openai.get_encoding(name)
    count = token_counter(name)
    assert [count(t) for t in TEXTS] == [len(encoding.encode_ordinary(t)) for t in TEXTS]
    assert count("") == 0
    assert count("Hello world, this is a chunk.") == 8


def test_counting_does_not_run_the_packages_init() -> None:
    code = (
        "import sys\n"
        "from pagereader.structure.tokens import token_counter\n"
        "print(token_counter('o200k_base')('第七條 得 應'), 'bpe_openai' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    count, imported = done.stdout.split()
    assert int(count) > 0
    assert imported == "False"
