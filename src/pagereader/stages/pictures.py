"""Pictures stage: a picture adds to its page only text that is new and readable.

OCR of a picture repeats what the page already says (a screenshot of the slide's own bullets,
text layer lines showing through a background) and reads garbage where the letters are
ornamental, tiny or photographed. Here, after verification, each figure keeps only the runs of
words that the page's other text does not already hold (fuzzy containment), and the rest is
dropped with a finding when checks/picture_text.py says it is not readable text. Each figure
gets a fingerprint (its image object's bytes on a PDF, its downscaled pixels otherwise) so that
the document pass (pictures_doc.py) can tell a logo on every page from a picture. A page with
pictures and nothing else to print keeps a figure marker.
"""

from __future__ import annotations

import hashlib

import numpy as np

from pagereader.checks.picture_text import check_picture_text
from pagereader.render.markdown import block_markdown
from pagereader.runtime import Runtime
from pagereader.sources.base import RenderedPage
from pagereader.stages.state import PageState
from pagereader.text.chars import normalize
from pagereader.types import BBox, Block, BlockResult, Finding, Verdict

MIN_FUZZY_CHARS = 4
"""Runs shorter than this (normalised) count as held only when they occur exactly."""
MIN_PARTIAL_RATIO = 90.0
"""rapidfuzz partial_ratio at which a run of words counts as held by the page's text."""
_MIN_SHARE, _MAX_SHARE = 0.01, 0.95
"""A picture's share of the page, as layout counts figures (a page-sized image is a scan)."""
_SIDE = 16
_LEVELS = 16
_BOX_SLACK = 2.0


def fold(text: str) -> str:
    """Text as compared: normalised, no whitespace, case folded."""
    return normalize(text, markdown=False).casefold()


def held(run: str, known: str) -> bool:
    """Whether ``run`` (folded) is in ``known`` (folded): exactly when short, fuzzily else."""
    if not run:
        return True
    if run in known:
        return True
    if len(run) < MIN_FUZZY_CHARS:
        return False
    from rapidfuzz import fuzz  # 0.02 s to import; most pages hold no picture text

    return fuzz.partial_ratio(run, known) >= MIN_PARTIAL_RATIO


def new_words(text: str, known: str) -> str:
    """``text`` without the longest runs of words that ``known`` (folded) already holds."""
    words = text.split()
    kept: list[str] = []
    start = 0
    while start < len(words):
        end = start
        while end < len(words) and held(fold(" ".join(words[start : end + 1])), known):
            end += 1
        if end == start:
            kept.append(words[start])
            start += 1
        else:
            start = end
    return " ".join(kept)


def _same_box(a: BBox, b: BBox) -> bool:
    return all(abs(x - y) <= _BOX_SLACK for x, y in zip(a, b, strict=True))


def fingerprint(page: RenderedPage, block: Block) -> str:
    """The picture's identity across pages: the digest of its image object's bytes when the PDF
    has it, otherwise of its crop reduced to 16x16 grey pixels in 16 levels."""
    for box, digest in zip(page.image_boxes, page.image_digests, strict=False):
        clipped: BBox = (
            max(0.0, box[0]),
            max(0.0, box[1]),
            min(page.width, box[2]),
            min(page.height, box[3]),
        )
        if digest and _same_box(clipped, block.bbox):
            return f"pdf:{digest[:20]}"
    x0, y0, x1, y1 = (round(v * page.scale) for v in block.bbox)
    crop = page.image.crop((x0, y0, max(x0 + 1, x1), max(y0 + 1, y1))).convert("L")
    small = np.asarray(crop.resize((_SIDE, _SIDE)), dtype=np.uint16) * _LEVELS // 256
    shape = f"{(x1 - x0) / max(1, y1 - y0):.1f}"
    return "px:" + hashlib.sha1(small.astype(np.uint8).tobytes() + shape.encode()).hexdigest()[:20]


def _with(result: BlockResult, text: str, finding: Finding | None, review: bool) -> BlockResult:
    verdict = result.verdict
    if finding is not None:
        action = "review" if review else verdict.outcome
        verdict = Verdict(outcome=action, findings=(*verdict.findings, finding))
    return result.model_copy(update={"text": text, "verdict": verdict})


def sift_picture(result: BlockResult, known: str, script: str) -> BlockResult:
    """The figure's result with only new, readable text; a finding says what went."""
    text = result.text.strip()
    if not text or result.html:
        return result
    fresh = new_words(text, known)
    if not fresh:
        note = Finding(
            check="picture", message="the picture's text is the page's own", severity="info"
        )
        return _with(result, "", note, review=False)
    reasons = check_picture_text(fresh, result.confidence, script)
    if reasons:
        why = "; ".join(f.message for f in reasons)
        excerpt = " ".join(fresh.split())[:80]
        dropped = Finding(
            check="picture",
            message=f"the text read in the picture was left out ({why}): {excerpt}",
            severity="warn",
        )
        return _with(result, "", dropped, review=True)
    if fresh != " ".join(text.split()):
        note = Finding(
            check="picture",
            message="words the page already holds were left out of the picture's text",
            severity="info",
        )
        return _with(result, fresh, note, review=False)
    return result


def sift_pictures(state: PageState) -> list[BlockResult]:
    """Every figure sifted against the page's text layer, its other blocks and the figures
    before it, fingerprinted; other blocks as they are."""
    page = state.rendered
    script = state.decision.script if state.decision is not None else "unknown"
    known = [ln.text for ln in page.lines if ln.text.strip()]
    known += [r.text for r in state.results if r.block.kind != "figure" and r.text.strip()]
    folded = fold("\n".join(known))
    out: list[BlockResult] = []
    for result in sorted(state.results, key=lambda r: r.block.order):
        if result.block.kind == "figure":
            result = sift_picture(result, folded, script)
            block = result.block.model_copy(update={"picture": fingerprint(page, result.block)})
            result = result.model_copy(update={"block": block})
            folded += fold(result.text)
        out.append(result)
    return out


def picture_marker(state: PageState) -> BlockResult | None:
    """A figure over the page's pictures when nothing else of the page would be printed:
    a page of pictures is never an empty page. None when the page prints something or has
    no picture (a page-sized image is a scan, which says itself what it did not read)."""
    page = state.rendered
    if any(block_markdown(r) for r in state.results):
        return None
    area = page.width * page.height
    boxes = [
        b
        for b in page.image_boxes
        if _MIN_SHARE <= (b[2] - b[0]) * (b[3] - b[1]) / max(area, 1e-9) < _MAX_SHARE
    ]
    if not boxes:
        return None
    box = (
        max(0.0, min(b[0] for b in boxes)),
        max(0.0, min(b[1] for b in boxes)),
        min(page.width, max(b[2] for b in boxes)),
        min(page.height, max(b[3] for b in boxes)),
    )
    order = max((r.block.order for r in state.results), default=-1) + 1
    note = Finding(
        check="picture", message="a page of pictures; nothing read in them", severity="info"
    )
    return BlockResult(
        block=Block(kind="figure", bbox=box, order=order, source="pdf-image"),
        verdict=Verdict(findings=(note,)),
    )


async def run_pictures(ctx: Runtime, state: PageState) -> PageState:
    """Sift the page's pictures (a native slide's come from its own file and stay)."""
    if state.rendered.native is not None:
        return state
    if any(r.block.kind == "figure" for r in state.results):
        state.results = sift_pictures(state)
    marker = picture_marker(state)
    if marker is not None:
        state.results.append(marker)
    return state
