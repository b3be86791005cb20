"""diff.md and diff.json from a VersionDiff: critical changes first, each change word by word
(``<del>old</del><ins>new</ins>`` inside its unchanged context) with its pages in both
versions."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from pagereader.structure.diff.model import Change, ChangeKind, Hunk, VersionDiff

_SECTIONS: tuple[tuple[ChangeKind, str], ...] = (
    ("added", "Added"),
    ("deleted", "Deleted"),
    ("renumbered", "Renumbered"),
    ("changed", "Changed"),
)
EXCERPT_CHARS = 300
"""Characters of each side shown in diff.md of a stretch not compared word by word."""
LISTED_CHARS = 2_000
"""Characters of critical tokens listed for one change in diff.md (all are in diff.json)."""


def diff_json_text(diff: VersionDiff) -> str:
    """diff.json's text."""
    return json.dumps(diff.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


def _esc(text: str) -> str:
    return html.escape(text, quote=False).replace("\n", " ⏎ ")


def _excerpt(text: str) -> str:
    cut = text[:EXCERPT_CHARS]
    return _esc(cut) + (f"… ({len(text):,} characters)" if len(cut) < len(text) else "")


def hunk_line(hunk: Hunk) -> str:
    """One run of changed words in its context, the removed words struck, the new inserted;
    a stretch not compared word by word as the beginning of each side."""
    tail = f" (critical: {listed(hunk.critical, LISTED_CHARS)})" if hunk.critical else ""
    if not hunk.word_by_word:
        return (
            "not compared word by word (too long, see the notes); old: "
            f"<del>{_excerpt(hunk.old)}</del> new: <ins>{_excerpt(hunk.new)}</ins>{tail}"
        )
    removed = f"<del>{_esc(hunk.old)}</del>" if hunk.old else ""
    added = f"<ins>{_esc(hunk.new)}</ins>" if hunk.new else ""
    line = f"…{_esc(hunk.before)}{removed}{added}{_esc(hunk.after)}…"
    item = hunk.new_item or hunk.old_item
    if "/" in item:  # inside a numbered paragraph, subparagraph or item
        line = f"in {item}: {line}"
    return line + tail


def page_list(pages: Sequence[int]) -> str:
    """``p. 3`` or ``pp. 1–4, 7``: consecutive pages as a range."""
    ranges: list[list[int]] = []
    for page in pages:
        if ranges and page == ranges[-1][1] + 1:
            ranges[-1][1] = page
        else:
            ranges.append([page, page])
    text = ", ".join(str(a) if a == b else f"{a}–{b}" for a, b in ranges)
    return ("p. " if len(pages) == 1 else "pp. ") + text


def listed(items: Sequence[str], limit: int) -> str:
    """``items`` joined by commas within about ``limit`` characters (an item longer than that
    cut), the rest counted: a line a terminal or a reader can take, the whole in diff.json."""
    shown: list[str] = []
    size = 0
    for item in items:
        size += len(item) + 2
        if shown and size > limit:
            break
        shown.append(item if len(item) <= limit else f"{item[:limit]}… ({len(item):,} characters)")
    rest = len(items) - len(shown)
    return ", ".join(shown) + (f" … and {rest:,} more (all in diff.json)" if rest else "")


def _title(change: Change) -> str:
    old, new = change.old, change.new
    if old and new and old.number != new.number:
        name = f"{old.label} → {new.label} ({old.id} → {new.id})"
    elif old or new:
        ref = old or new
        assert ref is not None
        name = f"{ref.label}{f' ({ref.title})' if ref.title else ''} ({ref.id})"
    else:
        name = "Passage"
    sides = [f"old {page_list(change.old_pages)}"] if change.old_pages else []
    sides += [f"new {page_list(change.new_pages)}"] if change.new_pages else []
    where = " → ".join(sides)
    similar = f", similarity {change.similarity:.2f}" if change.similarity is not None else ""
    return f"### {name} — {where}{similar}"


def _change(change: Change) -> list[str]:
    lines = [_title(change), ""]
    if change.critical:
        tokens = [f"`{c}`" for c in change.critical]
        lines += [f"**Critical:** {listed(tokens, LISTED_CHARS)}", ""]
    if change.old is not None and change.new is not None and change.kind == "deleted":
        lines += [f"Marked deleted in the new version ({_esc(change.new.label)}).", ""]
    if change.text and not change.hunks:
        lines += [f"> {_esc(line)}" for line in change.text.splitlines() if line.strip()] + [""]
    elif change.kind == "renumbered" and not change.hunks:
        lines += ["Its text reads the same.", ""]
    lines += [f"- {hunk_line(h)}" for h in change.hunks]
    return [*lines, ""] if change.hunks else lines


def _summary(diff: VersionDiff) -> str:
    s = diff.summary
    counts = f"{s.added} added, {s.deleted} deleted, {s.renumbered} renumbered, {s.changed} changed"
    of_them = f"{s.critical} with critical changes, {s.punctuation_only} in punctuation only"
    tail = f"; {s.unchanged} articles unchanged" if diff.mode == "articles" else ""
    total = f"{len(diff.changes)} change{'s' if len(diff.changes) != 1 else ''}"
    return f"**Summary:** {total}: {counts} ({of_them}){tail}."


def diff_markdown(diff: VersionDiff) -> str:
    """diff.md's text."""
    lines = [
        "# Version diff",
        "",
        "| | old | new |",
        "| --- | --- | --- |",
        f"| source | {_esc(diff.old.source)} | {_esc(diff.new.source)} |",
        f"| status | {diff.old.status} | {diff.new.status} |",
        f"| pages | {diff.old.pages} | {diff.new.pages} |",
        f"| articles | {diff.old.articles} | {diff.new.articles} |",
        "",
        "Compared article by article, the text outside the articles as running text."
        if diff.mode == "articles"
        else "Compared as running text.",
        "",
    ]
    lines += [f"> **Note:** {_esc(note)}" for note in diff.notes]
    lines += [""] if diff.notes else []
    if not diff.changes:
        return "\n".join([*lines, "**No changes.**", ""])
    lines += [_summary(diff), ""]
    critical = [c for c in diff.changes if c.critical]
    if critical:
        lines += ["## Critical changes", ""]
        for change in critical:
            lines += _change(change)
    for kind, heading in _SECTIONS:
        for unit in ("article", "passage"):
            rest = [
                c
                for c in diff.changes
                if c.kind == kind and c.unit == unit and not c.critical and not c.punctuation_only
            ]
            if rest:
                lines += [f"## {heading} {unit}s", ""]
                for change in rest:
                    lines += _change(change)
    marks = [c for c in diff.changes if c.punctuation_only and not c.critical]
    if marks:
        lines += ["## Punctuation only", ""]
        for change in marks:
            lines += _change(change)
    return "\n".join(lines).rstrip() + "\n"
