"""The output files of a document, each listed once with the view that makes it.

An output is a file (name and media type, render/files.py) and a view: a function of the
finished document (:class:`Finished`) that gives the file's text. The writer writes the views
in the registry's order, then the report (review.md, which lists what of them failed) and the
record (document.json, last: it records everything, and a folder without it is not written).
The service serves exactly these files, with these media types. A new format is one view and
one :class:`Output` given to :meth:`Registry.plus` (or listed in :data:`OUTPUTS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pagereader.config.options import Options
from pagereader.render import files
from pagereader.render.files import OutputFile
from pagereader.render.json import document_json_text
from pagereader.render.review import review_markdown
from pagereader.structure.chunks import chunks_file
from pagereader.timing import timings_document
from pagereader.types import DocumentResult


@dataclass(frozen=True)
class Finished:
    """What the views read: the finished document and how it was made. ``drawn``: the pages
    whose overlay is in the folder (None: every page's); ``wall_s``: the run's seconds, for
    timings.json; ``decisions``: what is recorded beside a block in document.json (a
    reviewer's provenance), by (page, block order)."""

    result: DocumentResult
    options: Options
    budget_s: float
    wall_s: float | None = None
    drawn: Collection[int] | None = None
    decisions: Mapping[tuple[int, int], Mapping[str, Any]] = field(default_factory=dict)


View = Callable[[Finished], str]


@dataclass(frozen=True)
class Output:
    """One file of the folder and the view that makes it. ``stage``: what an error of the view
    names (a view that raises leaves no file and an error in document.json)."""

    file: OutputFile
    view: View
    stage: str = "write"

    @property
    def name(self) -> str:
        return self.file.name


def markdown_view(finished: Finished) -> str:
    return finished.result.markdown


def timings_view(finished: Finished) -> str:
    pages = finished.result.pages
    return json.dumps(timings_document(pages, finished.budget_s, finished.wall_s), indent=2)


def chunks_view(finished: Finished) -> str:
    return chunks_file(finished.result, finished.options)


def review_view(finished: Finished) -> str:
    return review_markdown(finished.result, finished.drawn)


def record_view(finished: Finished) -> str:
    return document_json_text(finished.result, finished.decisions)


@dataclass(frozen=True)
class Registry:
    """The outputs in writing order, then the report and the record (see the module's
    docstring)."""

    views: tuple[Output, ...]
    report: Output
    record: Output
    kept: tuple[OutputFile, ...] = ()
    """Files a folder may hold that no view makes (the pipeline's own document.json, kept
    aside when a reviewer first corrects a job): served, never written by the writer."""

    def __iter__(self) -> Iterator[Output]:
        """Every output, in the order the writer writes them."""
        yield from self.views
        yield self.report
        yield self.record

    def plus(self, output: Output) -> Registry:
        """This registry with one more output, written after the other views."""
        if output.name in self.names():
            raise ValueError(f"an output named {output.name} is already registered")
        return Registry((*self.views, output), self.report, self.record, self.kept)

    def files(self) -> tuple[OutputFile, ...]:
        """Every file of the folder this registry knows: the outputs, then the kept files."""
        return (*(output.file for output in self), *self.kept)

    def names(self) -> tuple[str, ...]:
        return tuple(file.name for file in self.files())

    def file(self, name: str) -> OutputFile | None:
        """The registered file called ``name`` (None for any other name)."""
        return next((file for file in self.files() if file.name == name), None)


OUTPUTS = Registry(
    views=(
        Output(files.DOCUMENT_MD, markdown_view),
        Output(files.TIMINGS_JSON, timings_view),
        Output(files.CHUNKS_JSONL, chunks_view, stage="chunks"),
    ),
    report=Output(files.REVIEW_MD, review_view),
    record=Output(files.DOCUMENT_JSON, record_view),
    kept=(files.ORIGINAL_JSON,),
)
"""Every output file of a document folder (overlays aside: they are drawn as pages finish)."""
