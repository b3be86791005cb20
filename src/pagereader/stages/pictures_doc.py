"""The document's recurring pictures: a logo on every page is read once, not printed on each.

Pages are read apart, so only the finished document shows that one picture (the same image
object, or the same pixels) is on most of its pages. Such a picture is page furniture: its
text goes once into ``DocumentResult.recurring_pictures``, and on each page its block becomes
a header or footer without text, as does a scanned page's OCR of it (a page left with nothing
to print keeps it as a figure).
"""

from __future__ import annotations

from collections import Counter, defaultdict

from pagereader.render.markdown import block_markdown
from pagereader.stages.pictures import fold, held
from pagereader.types import (
    BBox,
    BlockResult,
    DeckInfo,
    DocumentResult,
    Finding,
    PageResult,
    RecurringPicture,
    Verdict,
)

RECURRING_SHARE = 0.5
"""A picture on more than this share of the pages (and on two at least) is furniture, as a
slide deck's own pictures are (sources/pptx_native.py)."""


def recurring_pictures(pages: tuple[PageResult, ...]) -> tuple[RecurringPicture, ...]:
    """The pictures on more than ``RECURRING_SHARE`` of ``pages``, with their commonest text
    (none when most of their reads added nothing to their pages)."""
    seen: dict[str, set[int]] = defaultdict(set)
    texts: dict[str, Counter[str]] = defaultdict(Counter)
    for page in pages:
        for result in page.blocks:
            if result.block.kind == "figure" and result.block.picture:
                seen[result.block.picture].add(page.index)
                texts[result.block.picture][result.text.strip()] += 1
    return tuple(
        RecurringPicture(
            fingerprint=key,
            pages=tuple(sorted(found)),
            text=texts[key].most_common(1)[0][0] if texts[key] else "",
        )
        for key, found in sorted(seen.items())
        if len(found) >= 2 and len(found) > RECURRING_SHARE * len(pages)
    )


def _furniture(result: BlockResult, page: PageResult, note: Finding) -> BlockResult:
    box = result.block.bbox
    kind = "header" if (box[1] + box[3]) / 2 < page.height / 2 else "footer"
    verdict = Verdict(outcome=result.verdict.outcome, findings=(*result.verdict.findings, note))
    block = result.block.model_copy(update={"kind": kind})
    return result.model_copy(update={"block": block, "text": "", "verdict": verdict})


def _boxes(pages: tuple[PageResult, ...], keys: dict[str, int]) -> dict[str, BBox]:
    return {
        r.block.picture: r.block.bbox
        for page in pages
        for r in page.blocks
        if r.block.kind == "figure" and r.block.picture in keys
    }


def _logo_text(result: BlockResult, boxes: dict[str, BBox], texts: dict[str, str]) -> str:
    """The recurring picture whose text an OCR block of a scanned page is, read inside the
    picture's box; empty when it is none."""
    if result.block.source != "ocr" or not result.text.strip():
        return ""
    x0, y0, x1, y1 = result.block.bbox
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for key, box in boxes.items():
        inside = box[0] <= cx <= box[2] and box[1] <= cy <= box[3]
        if inside and texts[key] and held(fold(result.text), fold(texts[key])):
            return key
    return ""


def _page(
    page: PageResult,
    keys: dict[str, int],
    total: int,
    boxes: dict[str, BBox],
    texts: dict[str, str],
) -> PageResult:
    blocks = list(page.blocks)
    changed = False
    for i, result in enumerate(blocks):
        key = result.block.picture if result.block.kind == "figure" else ""
        key = key or _logo_text(result, boxes, texts)
        if key not in keys:
            continue
        note = Finding(
            check="picture",
            message=(
                f"a picture on {keys[key]} of {total} pages: read once, in the document's"
                " recurring_pictures"
            ),
            severity="info",
        )
        blocks[i] = _furniture(result, page, note)
        changed = True
    if not changed:
        return page
    if not any(block_markdown(r) for r in blocks):  # a page of nothing but the logo
        return page
    return page.model_copy(update={"blocks": tuple(blocks)})


def document_pictures(result: DocumentResult, deck: DeckInfo | None) -> DocumentResult:
    """``result`` with a slide deck's metadata (``deck``, from the PPTX itself) and, for
    documents read from pixels, its recurring pictures moved out of the pages."""
    if deck is not None:
        return result.model_copy(update={"deck": deck})
    found = recurring_pictures(result.pages)
    if not found:
        return result
    keys = {p.fingerprint: len(p.pages) for p in found}
    boxes = _boxes(result.pages, keys)
    texts = {p.fingerprint: p.text for p in found}
    pages = tuple(_page(p, keys, len(result.pages), boxes, texts) for p in result.pages)
    return result.model_copy(update={"pages": pages, "recurring_pictures": found})
