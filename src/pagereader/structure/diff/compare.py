"""Two parsed versions of a document compared: article by article when both number their
articles, else as running text with pages; critical changes first in the result."""

from __future__ import annotations

from collections.abc import Sequence

from pagereader.structure.diff.align import Pair, align, article_text, articles, search_note
from pagereader.structure.diff.diff_report import page_list
from pagereader.structure.diff.items import ItemIndex
from pagereader.structure.diff.model import (
    ArticleRef,
    Change,
    ChangeKind,
    DiffSummary,
    VersionDiff,
    VersionSide,
)
from pagereader.structure.diff.passages import outside_articles, page_texts, text_changes
from pagereader.structure.diff.runs import WORD_PAIRS_MAX
from pagereader.structure.diff.words import critical_changes, hunks, word_count
from pagereader.types import DocumentResult, StructureNode

_ORDER: dict[ChangeKind, int] = {"added": 1, "deleted": 2, "renumbered": 3, "changed": 4}


def _ref(node: StructureNode) -> ArticleRef:
    return ArticleRef(
        id=node.id, label=node.label, number=node.number, title=node.title, deleted=node.deleted
    )


def _pair_change(pair: Pair, patterns: Sequence[str]) -> Change | None:
    """The change a pair of articles records; None when the article reads the same."""
    old, new = pair.old, pair.new
    if old is None or (new is not None and old.deleted and not new.deleted):
        assert new is not None
        return Change(
            kind="added",
            old=_ref(old) if old else None,  # an article marked deleted, restored
            new=_ref(new),
            old_pages=old.pages if old else (),
            new_pages=new.pages,
            text=article_text(new),
        )
    if new is None or (new.deleted and not old.deleted):
        return Change(
            kind="deleted",
            old=_ref(old),
            new=_ref(new) if new else None,
            old_pages=old.pages,
            new_pages=new.pages if new else (),
            text=article_text(old),
        )
    before, after = article_text(old), article_text(new)
    old_items, new_items = ItemIndex(old), ItemIndex(new)
    found = tuple(
        h.model_copy(
            update={"old_item": old_items.at(h.old_at), "new_item": new_items.at(h.new_at)}
        )
        for h in hunks(before, after, patterns)
    )
    renumbered = old.number != new.number
    if not found and not renumbered:
        return None
    return Change(
        kind="renumbered" if renumbered else "changed",
        old=_ref(old),
        new=_ref(new),
        old_pages=old.pages,
        new_pages=new.pages,
        similarity=pair.similarity,
        critical=critical_changes(before, after, patterns) if found else (),
        hunks=found,
        punctuation_only=not renumbered and all(h.punctuation_only for h in found),
    )


def ordered(changes: Sequence[Change]) -> tuple[Change, ...]:
    """Critical changes first, then added, deleted, renumbered and changed, then changes in
    punctuation only; each group in document order."""
    last = len(_ORDER) + 1
    keyed = [
        (0 if c.critical else last if c.punctuation_only else _ORDER[c.kind], n)
        for n, c in enumerate(changes)
    ]
    return tuple(changes[n] for _, n in sorted(keyed))


def summary(changes: Sequence[Change], unchanged: int) -> DiffSummary:
    """Counts of each kind of change."""
    count = {kind: sum(c.kind == kind for c in changes) for kind in _ORDER}
    return DiffSummary(
        **count,
        critical=sum(bool(c.critical) for c in changes),
        punctuation_only=sum(c.punctuation_only for c in changes),
        unchanged=unchanged,
    )


def side(result: DocumentResult) -> VersionSide:
    """What diff.json says of one version."""
    return VersionSide(
        source=result.source,
        status=result.status,
        pages=len(result.pages),
        articles=len(articles(result.structure)),
        errors=result.errors,
    )


def _failed_pages(label: str, result: DocumentResult) -> list[str]:
    return [
        f"{label}: {error.line()}; a change on that page may be missing from this diff"
        for error in result.errors
    ]


def _coarse_notes(changes: Sequence[Change]) -> list[str]:
    """One note for each stretch that was too long to compare word by word."""
    notes = []
    for change in changes:
        for hunk in change.hunks:
            if hunk.word_by_word:
                continue
            ref = change.new or change.old
            where = f"{ref.label} ({ref.id})" if ref else "the passage"
            sides = [f"old {page_list(change.old_pages)}"] if change.old_pages else []
            sides += [f"new {page_list(change.new_pages)}"] if change.new_pages else []
            notes.append(
                f"{where} on {' and '.join(sides)}: {word_count(hunk.old):,} and "
                f"{word_count(hunk.new):,} words with no run of words in common to anchor "
                f"them, too many to compare word by word (over {WORD_PAIRS_MAX:,} word pairs); "
                "shown as one change, both texts whole in diff.json"
            )
    return notes


def diff_documents(
    old: DocumentResult, new: DocumentResult, patterns: Sequence[str]
) -> VersionDiff:
    """Every change from ``old`` to ``new``; article by article when both have articles."""
    notes = [*_failed_pages("old", old), *_failed_pages("new", new)]
    old_articles, new_articles = articles(old.structure), articles(new.structure)
    if old_articles and new_articles:
        pairs = align(old_articles, new_articles)
        found = [_pair_change(pair, patterns) for pair in pairs]
        changes = [c for c in found if c is not None]
        unchanged = len(found) - len(changes)
        changes += text_changes(outside_articles(old.pages), outside_articles(new.pages), patterns)
        searched = search_note(len(old_articles), len(new_articles))
        notes += [*([searched] if searched else []), *_coarse_notes(changes)]
        return VersionDiff(
            mode="articles",
            old=side(old),
            new=side(new),
            summary=summary(changes, unchanged),
            changes=ordered(changes),
            notes=tuple(notes),
        )
    if old_articles or new_articles:
        which = "old" if old_articles else "new"
        notes.append(
            f"only the {which} version numbers its articles ({len(old_articles or new_articles)}"
            "); the versions were compared as running text"
        )
    changes = text_changes(page_texts(old.pages), page_texts(new.pages), patterns)
    notes += _coarse_notes(changes)
    return VersionDiff(
        mode="text",
        old=side(old),
        new=side(new),
        summary=summary(changes, 0),
        changes=ordered(changes),
        notes=tuple(notes),
    )
