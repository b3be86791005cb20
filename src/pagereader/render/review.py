"""review.md: what a person should look at in a parsed document, with its page pictures.

Blocks the verifier kept but flagged (``review``) come first, page by page, each with the
findings behind the flag, an excerpt of the answer, and a link to the page overlay
(``pages/NNN.png``) where the block is drawn. Blocks the verifier corrected on its own
(retry, escalate, fallback) follow in a table, so a reader can audit the corrections too.
A page whose overlay was not written is named without a link, never linked to a missing file.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path

from pagereader.render.files import REVIEW_MD
from pagereader.types import BlockResult, DocumentResult, PageResult

_EXCERPT = 240
_CORRECTED = ("retry", "escalate", "fallback")


def block_faults(block: BlockResult) -> list[str]:
    """Why the verifier flagged a block: each finding that is more than information."""
    return [f"{f.check}: {f.message}" for f in block.verdict.findings if f.severity != "info"]


def _remedies(block: BlockResult) -> list[str]:
    return [f.message for f in block.verdict.findings if f.check == "remedy"]


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def review_marker(block: BlockResult) -> str:
    """An HTML comment to put before a flagged block in document.md (empty otherwise)."""
    if block.verdict.outcome != "review":
        return ""
    reasons = "; ".join(block_faults(block)) or "flagged"
    return f"<!-- review: {_cell(reasons).replace('--', '- -')} -->"


def _link(text: str, index: int, pages_dir: str, drawn: Collection[int] | None) -> str:
    """``text`` linked to the page's overlay, or plain when it was not written."""
    if drawn is not None and index not in drawn:
        return text
    return f"[{text}]({pages_dir}/{index:03d}.png)"


def _page_section(
    page: PageResult,
    flagged: Sequence[BlockResult],
    pages_dir: str,
    drawn: Collection[int] | None,
) -> list[str]:
    image = f"{pages_dir}/{page.index:03d}.png"
    if drawn is None or page.index in drawn:
        picture = f"[![page {page.index}]({image})]({image})"
    else:
        picture = f"(page {page.index}: no overlay written)"
    lines = [f"## Page {page.index}", "", picture, ""]
    for block in flagged:
        box = ", ".join(f"{v:.0f}" for v in block.block.bbox)
        lines.append(
            f"- **{block.block.kind} block {block.block.order}** (engine "
            f"`{block.engine or 'none'}`, box {box})"
        )
        lines.extend(f"  - {_cell(reason)}" for reason in block_faults(block))
        lines.extend(f"  - tried: {_cell(step)}" for step in _remedies(block))
        text = _cell(block.text or block.html or "")
        if text:
            excerpt = text if len(text) <= _EXCERPT else text[:_EXCERPT] + " ..."
            lines.append(f"  - answer: > {excerpt}")
    lines.append("")
    return lines


def review_markdown(
    result: DocumentResult, drawn: Collection[int] | None = None, pages_dir: str = "pages"
) -> str:
    """The review document: pages whose whole needs a look (print no block holds, ink read as
    nothing), flagged blocks by page, then the automatic corrections. ``drawn``: the pages
    whose overlay is on disk (None: every page's)."""
    total = sum(len(page.blocks) for page in result.pages)
    flagged = {
        page.index: [b for b in page.blocks if b.verdict.outcome == "review"]
        for page in result.pages
    }
    corrected = [
        (page.index, block)
        for page in result.pages
        for block in page.blocks
        if block.verdict.outcome in _CORRECTED
    ]
    count = sum(len(blocks) for blocks in flagged.values())
    lines = [f"# Review: {Path(result.source).name}", ""]
    lines.append(
        f"{count} of {total} blocks need a look; {len(corrected)} were corrected automatically."
    )
    lines.append("")
    if result.errors:
        lines.append(
            f"Status {result.status}: {len(result.errors)} error(s), listed under Errors below."
        )
        lines.append("")
    elif result.warnings:
        lines.append(f"{len(result.warnings)} warning(s), listed under Warnings below.")
        lines.append("")
    elif count == 0 and not corrected and not any(page.warnings for page in result.pages):
        lines.append("Nothing to review: every block was accepted as first answered.")
    warned = [page for page in result.pages if page.warnings]
    if warned:
        lines += ["## Pages to check", ""]
        lines.extend(
            f"- {_link(f'page {page.index}', page.index, pages_dir, drawn)}: {_cell(warning)}"
            for page in warned
            for warning in page.warnings
        )
        lines.append("")
    for page in result.pages:
        if flagged[page.index]:
            lines.extend(_page_section(page, flagged[page.index], pages_dir, drawn))
    if corrected:
        lines += [
            "## Corrected automatically",
            "",
            "| page | block | kind | outcome | engine | why |",
            "|---:|---:|---|---|---|---|",
        ]
        for index, block in corrected:
            why = "; ".join(block_faults(block)) or "-"
            lines.append(
                f"| {_link(str(index), index, pages_dir, drawn)} | {block.block.order} | "
                f"{block.block.kind} | {block.verdict.outcome} | {block.engine} | "
                f"{_cell(why)} |"
            )
        lines.append("")
    if result.errors:
        lines += ["## Errors", ""]
        lines.extend(f"- {_cell(error.line())}" for error in result.errors)
        lines.append("")
    if result.warnings:
        lines += ["## Warnings", ""]
        lines.extend(f"- {_cell(warning)}" for warning in result.warnings)
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_review(folder: Path, result: DocumentResult) -> Path:
    """Write ``folder/review.md`` and return its path."""
    path = folder / REVIEW_MD.name
    path.write_text(review_markdown(result), encoding="utf-8")
    return path
