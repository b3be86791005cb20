"""The finished document from the pages read: every document-level pass, in one sequence.

Reading gives pages and a few facts about the file (its page count, what the reader left out,
a deck's own metadata, the served engines that failed their start-up check); this turns them
into the document: its running headers and footers (told from body text at a page's edge),
engine faults, heading levels, the structure tree, a deck's metadata or the recurring pictures
moved out of the pages, the name the user knows it by, text every output can hold, and last the
Markdown made from the blocks as they then are (the one view of render/markdown.py; nothing
else sets it). A parse reads all pages and finishes them here; a batch that read a document's
page ranges apart merges what each range read and finishes the whole here, so the two give the
same document (a range never finishes its own pages: a logo repeated on three slides of one
range is not a recurring picture of the document).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pagereader.config.options import Options
from pagereader.document.result import document_result, named, with_pages
from pagereader.document.running import running_furniture
from pagereader.render.markdown import with_markdown
from pagereader.stages.engine_faults import engine_faults
from pagereader.stages.pictures_doc import document_pictures
from pagereader.text.unicode import DOCUMENT_TEXT, clean_result
from pagereader.types import DeckInfo, DocumentResult, ErrorItem, PageResult

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PagesRead:
    """What reading a document (or a range of its pages) gives, before the document-level
    passes. ``file``: the name the document goes by; ``local``: the path it was read from,
    which its errors name until it is finished. ``errors``: the document's own (a page's are on
    its page)."""

    file: str
    local: str
    page_count: int
    pages: tuple[PageResult, ...] = ()
    errors: tuple[ErrorItem, ...] = ()
    warnings: tuple[str, ...] = ()
    deck: DeckInfo | None = None
    engine_problems: Mapping[str, ErrorItem] = field(default_factory=dict)


def merge_reads(parts: Sequence[PagesRead]) -> PagesRead:
    """One document's page ranges, read apart, as if read at once: pages in page order, each
    warning once (every range's reader says the same of the file), the served engines that
    failed their check on any worker."""
    first = parts[0]
    problems: dict[str, ErrorItem] = {}
    for part in parts:
        problems.update(part.engine_problems)
    return PagesRead(
        file=first.file,
        local=first.local,
        page_count=max(part.page_count for part in parts),
        pages=tuple(sorted((p for part in parts for p in part.pages), key=lambda p: p.index)),
        errors=tuple(dict.fromkeys(e for part in parts for e in part.errors)),
        warnings=tuple(dict.fromkeys(w for part in parts for w in part.warnings)),
        deck=next((part.deck for part in parts if part.deck is not None), None),
        engine_problems=problems,
    )


def finish_document(read: PagesRead, options: Options) -> DocumentResult:
    """The document from its pages read (see the module's docstring for the sequence). A
    document none of whose pages was read (it could not be opened) gets no engine faults:
    no engine was asked anything for it."""
    pages = running_furniture(read.pages, options.verify.mark_review)
    errors, warnings = list(read.errors), read.warnings
    if pages:
        faults = engine_faults(read.file, pages, options, read.engine_problems)
        errors, warnings = [*errors, *faults.errors], warnings + faults.warnings
    result = document_result(read.file, read.page_count, pages, errors, warnings)
    result = document_pictures(result, read.deck)
    # the pages are clean (unicode.py); the name, errors and deck metadata added since are not
    cleaned, notes = clean_result(named(result, read.local, read.file), DOCUMENT_TEXT)
    for note in notes:
        logger.warning("%s: %s", read.file, note)
    return with_view(cleaned, options)


def with_view(result: DocumentResult, options: Options) -> DocumentResult:
    """``result`` with its Markdown made from its blocks as ``options`` say (review marks,
    page breaks): the last step of finishing, after every pass that changes blocks."""
    output = options.output
    return with_markdown(
        result,
        options.verify.mark_review,
        output.markdown_page_breaks,
        output.picture_text_in_markdown,
    )


def with_changed_pages(
    result: DocumentResult, pages: list[PageResult], options: Options
) -> DocumentResult:
    """A finished document holding changed pages (a reviewer's decisions applied), with
    everything read from the blocks computed again as for a parse: heading levels, the
    structure tree, then the Markdown."""
    return with_view(with_pages(result, pages), options)
