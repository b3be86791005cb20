"""``diff`` of long documents in bounded memory: every LCS, critical-token table and article
comparison it makes is checked against a memory bound before it is made (the real function
then runs), on documents whose whole-text alignment would take gigabytes (two 120-page
documents: 96,000 words each, 1.15 GB of LCS bits). Two unrelated texts are one change not
compared word by word, which diff.json holds whole; a slip in every paragraph is still found
word by word; renumbered articles are found past the cap on article pairs; and the terminal
report stays a few short lines whatever the diff holds."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rapidfuzz import process
from rapidfuzz.distance import Indel
from typer.testing import CliRunner

import pagereader.structure.diff.align as align_module
import pagereader.structure.diff.words as words_module
from pagereader.checks.critical import token_changes as critical_token_changes
from pagereader.cli.main import app
from pagereader.structure.diff.align import align
from pagereader.structure.diff.compare import diff_documents
from pagereader.structure.diff.words import diff_patterns
from pagereader.types import DocumentResult, StructureNode

from fixtures.long_versions import paragraphs, unrelated, with_slips, write_version

PATTERNS = diff_patterns()
LCS_PAIRS = 100_000_000
"""Most word pairs one LCS may span: 12.5 MB of bits (the whole 120-page texts: 9.2e9)."""
TOKEN_CELLS = 1_000_000
"""Most cells of one critical-token edit table (a Python list of lists: about 8 MB)."""
ARTICLE_PAIRS = 10_000
"""The cap on article pairs the test sets, and the most that one comparison may make."""


@pytest.fixture
def bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    lcs, table, cdist = Indel.opcodes, critical_token_changes, process.cdist

    def opcodes(a: Sequence[Any], b: Sequence[Any], **kwargs: Any) -> Any:
        assert len(a) * len(b) <= LCS_PAIRS, f"an LCS of {len(a):,} x {len(b):,} words"
        return lcs(a, b, **kwargs)

    def token_changes(ref: list[tuple[str, int]], hyp: list[tuple[str, int]]) -> list[str]:
        assert len(ref) * len(hyp) <= TOKEN_CELLS, f"a table of {len(ref)} x {len(hyp)} tokens"
        return table(ref, hyp)

    def pairs(queries: Sequence[str], choices: Sequence[str], **kwargs: Any) -> Any:
        count = len(queries) * len(choices)
        assert count <= ARTICLE_PAIRS, f"{len(queries)} x {len(choices)} articles compared"
        return cdist(queries, choices, **kwargs)

    monkeypatch.setattr(Indel, "opcodes", opcodes)
    monkeypatch.setattr(words_module, "token_changes", token_changes)
    monkeypatch.setattr(process, "cdist", pairs)


def _text(doc: DocumentResult) -> str:
    return "\n".join(text for page in paragraphs(doc) for text in page)


def _token_counts(text: str) -> Counter[str]:
    """The critical tokens of a fixture text counted by hand: its modal words and numbers."""
    return Counter(
        w for w in re.findall(r"\w+", text) if w.isdigit() or w in ("shall", "may", "must")
    )


@pytest.mark.usefixtures("bounded")
def test_two_unrelated_long_texts_are_one_change_not_compared_word_by_word() -> None:
    old, new = unrelated(120, seed=1), unrelated(120, seed=2)
    diff = diff_documents(old, new, PATTERNS)
    (change,) = diff.changes
    (hunk,) = change.hunks
    assert not hunk.word_by_word
    assert (hunk.old, hunk.new) == (_text(old), _text(new))
    assert (change.old_pages, change.new_pages) == (tuple(range(1, 121)), tuple(range(1, 121)))
    (note,) = diff.notes
    words = [len(re.findall(r"\w+|[^\s\w]", _text(doc))) for doc in (old, new)]
    assert note.startswith(f"the passage on old pp. 1–120 and new pp. 1–120: {words[0]:,} and ")
    assert "too many to compare word by word" in note
    # whatever the edit script, each token's drops minus additions is what its counts say
    net: Counter[str] = Counter()
    for step in change.critical:
        a, _, b = step.partition("->")
        if b:
            net[a] += 1
            net[b] -= 1
        else:
            net[step[1:]] += 1 if step[0] == "-" else -1
    expected = _token_counts(_text(old))
    expected.subtract(_token_counts(_text(new)))
    assert +net == +expected and -net == -expected


@pytest.mark.usefixtures("bounded")
def test_a_slip_in_every_paragraph_is_found_word_by_word() -> None:
    old = unrelated(120, seed=1)
    new, slips = with_slips(old)
    diff = diff_documents(old, new, PATTERNS)
    assert diff.notes == ()
    found = sorted(
        (change.old_pages, change.new_pages, hunk.old, hunk.new, hunk.word_by_word)
        for change in diff.changes
        for hunk in change.hunks
    )
    expected = sorted(((page,), (page,), was, now, True) for page, was, now in slips)
    assert found == expected


def _article(number: int, text: str) -> StructureNode:
    return StructureNode(
        kind="article",
        label=f"Article {number}",
        number=str(number),
        id=f"art-{number}",
        level=6,
        pages=(1,),
        blocks=((1, number),),
        text=text,
    )


@pytest.mark.usefixtures("bounded")
def test_articles_past_the_cap_are_still_followed_when_renumbered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """300 articles; the new version deletes article 5 (6-300 move up a number) and moves
    article 150 to the end: the shifted ones are found within the band, the moved one by its
    identical text."""
    monkeypatch.setattr(align_module, "ARTICLE_PAIRS_MAX", ARTICLE_PAIRS, raising=False)
    texts = [
        " ".join(p.split(" ")[:30]) for page in paragraphs(unrelated(38, seed=3)) for p in page
    ]
    old = [_article(n, texts[n]) for n in range(1, 301)]
    kept = [n for n in range(1, 301) if n not in (5, 150)] + [150]
    new = [_article(k, texts[n]) for k, n in enumerate(kept, start=1)]
    pairs = {
        (p.old.number if p.old else None, p.new.number if p.new else None) for p in align(old, new)
    }
    expected = {(str(n), str(k)) for k, n in enumerate(kept, start=1)} | {("5", None)}
    assert pairs == expected
    diff = diff_documents(
        DocumentResult(schema_version="2.0", source="a.pdf", status="ok", structure=tuple(old)),
        DocumentResult(schema_version="2.0", source="b.pdf", status="ok", structure=tuple(new)),
        PATTERNS,
    )
    assert diff.summary.renumbered == 295 and diff.summary.deleted == 1
    assert any("sought among the 16 new articles on either side" in n for n in diff.notes)


def _terminal(tmp_path: Path, old: DocumentResult, new: DocumentResult) -> tuple[str, Any]:
    out = tmp_path / "diff"
    result = CliRunner().invoke(
        app,
        [
            "diff",
            str(write_version(old, tmp_path / "old")),
            str(write_version(new, tmp_path / "new")),
            "-o",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output[:2000]
    return result.output, json.loads((out / "diff.json").read_text(encoding="utf-8"))


def test_a_long_critical_warning_is_cut_with_a_note(tmp_path: Path) -> None:
    output, data = _terminal(tmp_path, unrelated(30, seed=1), unrelated(30, seed=2))
    (warning,) = [line for line in output.splitlines() if "critical change in" in line]
    (change,) = data["changes"]
    shown = warning.split(": ", 1)[1].split(" … and ")[0].split(", ")
    assert shown == change["critical"][: len(shown)] and len(shown) < len(change["critical"])
    assert warning.endswith(f"and {len(change['critical']) - len(shown):,} more (all in diff.json)")
    assert max(map(len, output.splitlines())) <= 1000


def test_many_critical_changes_are_named_twenty_at_most(tmp_path: Path) -> None:
    old = unrelated(6, seed=1)
    new, slips = with_slips(old, word="{}")  # every paragraph: a number changed or added
    output, data = _terminal(tmp_path, old, new)
    named = [line for line in output.splitlines() if "critical change in" in line]
    assert len(data["changes"]) == len(slips) == 48
    assert len(named) == 20
    assert "28 more critical change(s), all in diff.md and diff.json" in output
