"""The names and media types of a document's output files, for every module that names one.

What makes each file, and in which order the writer writes them, is the output registry's
(document/outputs.py); the names live here, low in the layers, so that the modules below the
registry (the input walk that passes over output folders, the readers of an output folder)
name the same files.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OutputFile:
    """One file of a document's output folder: its name there and the media type it is
    served as."""

    name: str
    media_type: str


MARKDOWN_TYPE = "text/markdown; charset=utf-8"
JSON_TYPE = "application/json"

DOCUMENT_MD = OutputFile("document.md", MARKDOWN_TYPE)
DOCUMENT_JSON = OutputFile("document.json", JSON_TYPE)
CHUNKS_JSONL = OutputFile("chunks.jsonl", "application/jsonl")
REVIEW_MD = OutputFile("review.md", MARKDOWN_TYPE)
TIMINGS_JSON = OutputFile("timings.json", JSON_TYPE)
ORIGINAL_JSON = OutputFile("document.original.json", JSON_TYPE)
"""The pipeline's own document.json, kept aside the first time a reviewer corrects a job."""

OVERLAYS_DIR = "pages"
OVERLAY_TYPE = "image/png"


def overlay_name(index: int) -> str:
    """A page's overlay, relative to the output folder (``pages/007.png``)."""
    return f"{OVERLAYS_DIR}/{index:03d}.png"
