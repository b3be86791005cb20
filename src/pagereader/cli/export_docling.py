"""``pagereader export-docling``: a parse's document.json (or the output folder holding it, as
``diff`` takes it) as a docling-core DoclingDocument (JSON), for tools built on docling's
document model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import fail, writing
from pagereader.cli.outputs import load_output, saved_output


def export_docling_command(
    document: Annotated[
        Path,
        typer.Argument(help="a document.json that pagereader parse wrote, or its output folder"),
    ],
    output: Annotated[Path, typer.Option("-o", "--output", help="the JSON file to write")],
) -> None:
    """Write the document as a DoclingDocument: pages with sizes, headings with levels, text,
    lists, tables with cell spans and pictures, each with its page, box and text span."""
    from pagereader.atomic import write_atomic

    with needs_extra("docling"):
        from pagereader.integrations.docling_export import to_docling

    if not document.exists():
        raise fail(f"{document}: no such file or folder")
    saved = saved_output(document)
    if saved is None:
        what = "a folder without a document.json" if document.is_dir() else "not a .json file"
        raise fail(
            f"{document}: {what}; give the document.json pagereader parse wrote, "
            "or the output folder holding it"
        )
    result = load_output(saved)
    doc = to_docling(result)
    with writing(output, "-o"):
        try:
            write_atomic(output, json.dumps(doc.export_to_dict(), ensure_ascii=False).encode())
        except OSError as exc:  # its folder could not be made: name the file all the same
            exc.filename, exc.filename2 = str(output), None
            raise
    headings = sum(
        getattr(item, "label", "") == "section_header" for item, _ in doc.iterate_items()
    )
    typer.echo(
        f"{output}: {len(doc.pages)} page(s), {headings} heading(s), {len(doc.texts)} text(s), "
        f"{len(doc.tables)} table(s), {len(doc.pictures)} picture(s)"
    )
