"""diff.json's types: what changed between two versions of a document, article by article
(or, for a document without articles, passage by passage), with the pages on both sides."""

from __future__ import annotations

import unicodedata
from typing import Literal

from pagereader.types import ErrorItem, Frozen, Status

DIFF_SCHEMA_VERSION = "1.1"
ChangeKind = Literal["added", "deleted", "renumbered", "changed"]
DiffMode = Literal["articles", "text"]


class Hunk(Frozen):
    """One run of words that differs: ``old`` replaced by ``new`` (either may be empty), with
    the unchanged text just ``before`` and ``after`` it (from the old version), where it starts
    in each version's text, and the critical tokens that change inside it (``得->應``, ``-30``,
    ``+shall``), and in each version the id of the paragraph, subparagraph or item
    (``art-2/p1/s3``), or else the article, it falls in (articles only).

    ``word_by_word`` is false for a stretch too long to align word by word (see runs.py):
    ``old`` and ``new`` are then the whole stretches between the nearest lines the versions
    share, unchanged words included, and past the verifier's own edit script ``critical``
    pairs tokens by an LCS, or lists each token whose count differs."""

    old: str
    new: str
    before: str = ""
    after: str = ""
    old_at: int
    new_at: int
    critical: tuple[str, ...] = ()
    old_item: str = ""
    new_item: str = ""
    word_by_word: bool = True

    @property
    def punctuation_only(self) -> bool:
        """Whether only punctuation marks differ (an OCR reading drops a full stop now and
        then; a person still decides)."""
        return all(
            unicodedata.category(ch).startswith("P") or ch.isspace() for ch in self.old + self.new
        )


class ArticleRef(Frozen):
    """An article as one version prints it."""

    id: str
    label: str
    number: str
    title: str = ""
    deleted: bool = False


class Change(Frozen):
    """One article added, deleted, renumbered or changed, or one passage of running text (a
    document without articles, or a statute's text outside them) added, deleted or changed.

    ``critical`` lists the critical tokens (modal words, numbers, dates, article numbers
    cited) that differ between the two texts, in the verifier's notation; ``text`` is the
    whole text of an added or deleted article; ``similarity`` (0-1) is how alike the two
    texts are when both exist."""

    kind: ChangeKind
    unit: Literal["article", "passage"] = "article"
    old: ArticleRef | None = None
    new: ArticleRef | None = None
    old_pages: tuple[int, ...] = ()
    new_pages: tuple[int, ...] = ()
    similarity: float | None = None
    critical: tuple[str, ...] = ()
    hunks: tuple[Hunk, ...] = ()
    text: str = ""
    punctuation_only: bool = False
    """A change (not a renumbering) whose every hunk differs in punctuation marks only:
    listed last."""


class VersionSide(Frozen):
    """One of the two versions compared: where it was read from and how that went."""

    source: str
    status: Status
    pages: int
    articles: int
    errors: tuple[ErrorItem, ...] = ()


class DiffSummary(Frozen):
    """How many of each kind of change, how many critical, how many differ in punctuation
    only (counted in their kind too), how many articles unchanged."""

    added: int = 0
    deleted: int = 0
    renumbered: int = 0
    changed: int = 0
    critical: int = 0
    punctuation_only: int = 0
    unchanged: int = 0


class VersionDiff(Frozen):
    """diff.json: the changes, critical ones first, then added, deleted, renumbered and
    changed articles in the new version's order. ``notes`` say what the reader must know to
    trust it (a page that failed to parse, a document compared as text). Changes in
    punctuation only come last."""

    schema_version: str = DIFF_SCHEMA_VERSION
    mode: DiffMode
    old: VersionSide
    new: VersionSide
    summary: DiffSummary
    changes: tuple[Change, ...] = ()
    notes: tuple[str, ...] = ()
