"""What the adapters answer about a parsed document, as typed models (a client reads their
JSON Schema): the parse summary with its bounded Markdown and the blocks flagged for review,
one page, one article of a statute's structure."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict

from pagereader.errors import InputError
from pagereader.render.review import block_faults
from pagereader.structure.numbering import normal_number, opening
from pagereader.structure.tree import preorder
from pagereader.types import DocumentResult, Status


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


def article_number(asked: str) -> str:
    """The normalized number of an article as a person writes it: ``30-1``, ``第三十條之一``,
    ``第 30-1 條``, ``제4조의2``, ``Article 5``, ``5``."""
    opened = opening(asked.strip())
    if opened is not None and opened.kind == "article":
        return opened.number
    return normal_number(asked.strip())


def article_answer(document_id: str, result: DocumentResult, asked: str) -> ArticleAnswer:
    number = article_number(asked)
    articles = [node for node in preorder(result.structure) if node.kind == "article"]
    for node in articles:
        if node.number == number:
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
    known = ", ".join(node.number for node in articles[:40])
    more = " ..." if len(articles) > 40 else ""
    raise InputError(
        f"no article {number} (asked {asked!r}); articles: {known}{more}", file=document_id
    )
