"""What the adapters answer about a parsed document, as typed models (a client reads their
JSON Schema): the parse summary with its bounded Markdown and the blocks flagged for review,
one page, one article of a statute's structure."""

from __future__ import annotations

import bisect
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from pagereader.errors import InputError
from pagereader.render.review import block_faults
from pagereader.structure.numbering import ARTICLE_ID_PREFIX, asked_article, number_order
from pagereader.structure.tree import preorder
from pagereader.types import DocumentResult, Status, StructureNode


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True)


class ReviewItem(_Answer):
    """A block the verifier kept but flagged for a person: where it is and why."""

    page: int
    block: int
    kind: str
    reasons: list[str]


class Markdown(_Answer):
    """Markdown cut to a size a model's context can take, saying when it was cut."""

    markdown: str
    truncated: bool
    total_chars: int


class ParseAnswer(_Answer):
    """One parsed document: its id for the other tools, status, Markdown, what to review,
    its errors (one line each: file, page, what went wrong, what to do) and output folder."""

    document: str
    status: Status
    pages: int
    markdown: Markdown
    review: list[ReviewItem]
    errors: list[str]
    warnings: list[str]
    output_folder: str


class PageAnswer(_Answer):
    document: str
    page: int
    markdown: Markdown


class ArticleAnswer(_Answer):
    """An article of a statute or contract as the document's structure holds it."""

    document: str
    id: str
    label: str
    number: str
    title: str
    text: str
    pages: list[int]
    deleted: bool


def bounded(markdown: str, limit: int, more: str) -> Markdown:
    """``markdown`` cut at ``limit`` characters (at a line end when one is near) with a note
    saying how much was left out and where to read the rest."""
    if len(markdown) <= limit:
        return Markdown(markdown=markdown, truncated=False, total_chars=len(markdown))
    cut = markdown.rfind("\n", 0, limit)
    cut = cut if cut > limit // 2 else limit
    note = f"\n\n[truncated: {cut} of {len(markdown)} characters shown; {more}]\n"
    return Markdown(markdown=markdown[:cut] + note, truncated=True, total_chars=len(markdown))


def review_items(result: DocumentResult) -> list[ReviewItem]:
    """The blocks flagged for review, page by page in reading order."""
    return [
        ReviewItem(
            page=page.index,
            block=block.block.order,
            kind=block.block.kind,
            reasons=block_faults(block) or ["flagged"],
        )
        for page in result.pages
        for block in sorted(page.blocks, key=lambda b: b.block.order)
        if block.verdict is not None and block.verdict.outcome == "review"
    ]


def parse_answer(
    document_id: str, result: DocumentResult, markdown: str, folder: Path, limit: int
) -> ParseAnswer:
    return ParseAnswer(
        document=document_id,
        status=result.status,
        pages=len(result.pages),
        markdown=bounded(markdown, limit, "read_page returns one page at a time"),
        review=review_items(result),
        errors=[error.line() for error in result.errors],
        warnings=list(result.warnings),
        output_folder=str(folder),
    )


def page_answer(document_id: str, result: DocumentResult, page: int, limit: int) -> PageAnswer:
    for candidate in result.pages:
        if candidate.index == page:
            more = "the full page is in document.md"
            return PageAnswer(
                document=document_id, page=page, markdown=bounded(candidate.markdown, limit, more)
            )
    read = ", ".join(str(p.index) for p in result.pages) or "none"
    raise InputError(f"page {page} was not read (pages read: {read})", file=document_id)


ASK_FORMS = "30-1, Article 30-1, Art. 30-1, 第30-1條, 第三十條之一, 제30조의2 or art-30-1"
"""How an article may be asked for, said when a question names none."""
CLOSEST = 2
"""Articles named on each side of an article the document does not hold."""


def article_answer(document_id: str, result: DocumentResult, asked: str) -> ArticleAnswer:
    """The article ``asked`` names, exactly (structure/numbering.py reads the question as it
    reads the document's labels); an InputError naming the closest articles otherwise, never
    a neighbour: ``Article 30-1`` is article 30-1 or no article, not article 30."""
    wanted = asked_article(asked)
    if wanted is None:
        raise InputError(
            f"{asked!r} is not an article number; ask as {ASK_FORMS}", file=document_id
        )
    articles = [node for node in preorder(result.structure) if node.kind == "article"]
    for node in articles:
        if node.id == wanted:
            return ArticleAnswer(
                document=document_id,
                id=node.id,
                label=node.label,
                number=node.number,
                title=node.title,
                text=node.text,
                pages=list(node.pages),
                deleted=node.deleted,
            )
    if not articles:
        raise InputError("the document's structure holds no articles", file=document_id)
    number = wanted.removeprefix(f"{ARTICLE_ID_PREFIX}-")
    closest = ", ".join(closest_ids(articles, number))
    raise InputError(
        f"no article {number} (asked {asked!r}); the closest it holds: {closest} "
        f"({len(articles)} articles in all)",
        file=document_id,
    )


def closest_ids(articles: list[StructureNode], number: str) -> list[str]:
    """Ids of the articles numbered nearest ``number``, CLOSEST on each side, in order."""
    ranked = sorted(articles, key=lambda node: number_order(node.number))
    at = bisect.bisect_left([number_order(node.number) for node in ranked], number_order(number))
    return [node.id for node in ranked[max(0, at - CLOSEST) : at + CLOSEST]]
