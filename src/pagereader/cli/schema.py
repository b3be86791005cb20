"""``pagereader schema``: the JSON Schema of document.json, from the result models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.messages import print_or_write


def schema_command(
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the schema here")] = None,
) -> None:
    """Print the JSON Schema of document.json (DocumentResult's, with its schema version in
    $id), so a consumer can validate outputs against the version that wrote them."""
    from pagereader.render.json import json_schema

    text = json.dumps(json_schema(), ensure_ascii=False, indent=2) + "\n"
    print_or_write(text, out)
