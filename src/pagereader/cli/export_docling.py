"""``pagereader export-docling``: a parse's document.json as a docling-core DoclingDocument
(JSON), for tools built on docling's document model."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import fail, os_error_line, writing


def export_docling_command(
    document: Annotated[Path, typer.Argument(help="a document.json that pagereader parse wrote")],
    output: Annotated[Path, typer.Option("-o", "--output", help="the JSON file to write")],
) -> None:
    """Write the document as a DoclingDocument: pages with sizes, headings with levels, text,
    lists, tables with cell spans and pictures, each with its page, box and text span."""
    from pydantic import ValidationError

    from pagereader.atomic import write_atomic
    from pagereader.types import DocumentResult

    with needs_extra("docling"):
        from pagereader.integrations.docling_export import to_docling

    try:
        text = document.read_text(encoding="utf-8")
    except OSError as exc:
        raise fail(os_error_line(exc, "cannot read")) from None
    except UnicodeDecodeError:
        raise fail(
            f"{document}: not UTF-8; give the document.json pagereader parse wrote"
        ) from None
    try:
        result = DocumentResult.model_validate_json(text)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top)"
        raise fail(
            f"{document}: not a pagereader document.json ({where}: {first['msg']}); "
            "give the document.json that pagereader parse wrote"
        ) from None
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
