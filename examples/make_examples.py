"""Write the shipped examples and their ground truth into this folder.

    python examples/make_examples.py

- deck.pdf: a digital deck (English, Traditional Chinese and Korean slides, then a slide with
  a ruled table and a bar chart); deck.pN.txt is the text of slide N.
- deck.pptx: the same slides as PPTX with speaker notes; deck.notes.txt lists the notes.
- scan.png: a 200-DPI scan (blur, noise, 1-degree skew, JPEG) of an A5 page mixing English
  and Traditional Chinese; scan.txt is its text.
- *.truth.json: the same ground truth with the language of every page.

The text is pagereader's own; the output is the same on every run.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from pagereader.evaluate import synth
from pagereader.evaluate.degrade import write_scans
from pagereader.evaluate.synth_pptx import write_pptx
from pagereader.evaluate.truth import DocTruth

HERE = Path(__file__).resolve().parent
logger = logging.getLogger("make_examples")


def make_examples(out_dir: Path = HERE) -> list[Path]:
    """Write the examples into ``out_dir`` and return the paths written."""
    slides = synth.deck_slides()
    deck = synth.write_deck_pdf(out_dir / "deck.pdf", slides)
    deck.write(out_dir)
    pptx = write_pptx(out_dir / "deck.pptx", slides)
    pptx.write(out_dir, page_texts=False)
    notes = "\n".join(f"Slide {p.page}: {p.notes}" for p in pptx.pages)
    (out_dir / "deck.notes.txt").write_text(notes + "\n", encoding="utf-8")
    with tempfile.TemporaryDirectory() as scratch:
        mixed_pdf = Path(scratch) / "scan.pdf"
        mixed = synth.write_mixed_pdf(mixed_pdf)
        written = write_scans(mixed_pdf, None, "medium", png_stem=Path(scratch) / "scan")
        (out_dir / "scan.png").write_bytes(written[0].read_bytes())
    scan = DocTruth(file="scan.png", pages=mixed.pages)
    scan.write(out_dir, page_texts=False)
    (out_dir / "scan.txt").write_text(scan.pages[0].text + "\n", encoding="utf-8")
    names = ["deck.pdf", "deck.pptx", "scan.png", "deck.notes.txt", "scan.txt"]
    names += [f"deck.p{p.page}.txt" for p in deck.pages]
    names += ["deck.pdf.truth.json", "deck.pptx.truth.json", "scan.png.truth.json"]
    return [out_dir / name for name in names]


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    for path in make_examples():
        logger.info("wrote %s (%d bytes)", path.relative_to(HERE.parent), path.stat().st_size)
