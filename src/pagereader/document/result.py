"""A document's result from its pages: which pages to read, its status, its errors under the
name the user knows it by, and its structure; shared by a whole parse and by a batch that read
the page ranges of one document apart."""

from __future__ import annotations

from pagereader.config.options import Options
from pagereader.render.json import SCHEMA_VERSION
from pagereader.structure.headings import with_headings
from pagereader.structure.tree import build_structure
from pagereader.types import DocumentResult, ErrorItem, PageResult, Status


def document_status(pages: list[PageResult], errors: list[ErrorItem]) -> Status:
    if not pages or all(p.errors and not p.blocks for p in pages):
        return "failed"
    if errors or any(p.errors for p in pages):
        return "partial"
    return "ok"


def select_pages(options: Options, count: int, file: str) -> tuple[list[int], list[ErrorItem], str]:
    """The pages to parse, errors, and a warning: a selection running past the end is cut
    to the document (a warning); one with no page inside it is an error."""
    if not options.pages:
        return list(range(1, count + 1)), [], ""
    wanted = sorted(set(options.pages))
    inside = [p for p in wanted if p <= count]
    past = len(wanted) - len(inside)
    if not inside:
        error = ErrorItem(
            file=file,
            stage="ingest",
            message=f"no selected page exists (first selected: {wanted[0]})",
            hint=f"the document has {count} pages",
        )
        return [], [error], ""
    warning = ""
    if past:
        warning = f"{past} selected page(s) past the end ignored; the document has {count} pages"
    return inside, [], warning


def named(result: DocumentResult, local: str, name: str) -> DocumentResult:
    """``result`` with its errors naming the document as ``name`` rather than ``local``."""
    if local == name:
        return result

    def rename(errors: tuple[ErrorItem, ...]) -> tuple[ErrorItem, ...]:
        return tuple(e.model_copy(update={"file": name}) if e.file == local else e for e in errors)

    pages = tuple(p.model_copy(update={"errors": rename(p.errors)}) for p in result.pages)
    return result.model_copy(update={"errors": rename(result.errors), "pages": pages})


def document_result(
    file: str,
    page_count: int,
    pages: list[PageResult],
    errors: list[ErrorItem],
    warnings: tuple[str, ...] = (),
) -> DocumentResult:
    """A document from its pages in page order; also merges the page ranges of one document
    that were read apart. Its headings get their levels here, where the whole document is
    known. The pages come cleaned
    (unicode.py); the caller cleans the finished document, after all it adds."""
    document = DocumentResult(
        schema_version=SCHEMA_VERSION,
        source=file,
        status=document_status(pages, errors),
        page_count=page_count,
        errors=tuple(errors) + tuple(e for p in pages for e in p.errors),
        warnings=warnings,
    )
    return with_pages(document, pages)


def with_pages(document: DocumentResult, pages: list[PageResult]) -> DocumentResult:
    """``document`` holding ``pages``, with what is read from the pages' blocks computed
    again: heading levels and the structure tree. A parse, a batch merge and a reviewer's
    correction all end here, so a corrected article number is the structure's (and so the
    chunks') article number too; the Markdown is made from the result last (document/finish.py)."""
    pages = with_headings(pages)
    return document.model_copy(update={"pages": tuple(pages), "structure": build_structure(pages)})
