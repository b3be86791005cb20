"""``pagereader export-evalset``: the pages reviewers checked in a service's data folder, as a
manifest.jsonl evalset that ``pagereader eval`` scores."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import error_line, fail, output_hint


def export_evalset_command(
    out: Annotated[
        Path, typer.Argument(help="folder to write manifest.jsonl, files/ and refs/ to")
    ],
    data_dir: Annotated[
        Path, typer.Option(help="the service's data folder (as given to pagereader serve)")
    ] = Path("pagereader-data"),
) -> None:
    """Write every page a reviewer approved or corrected as an eval case (the corrected text is
    the reference); safe to run beside a running server."""
    from pagereader.document.writer import probe_folder
    from pagereader.errors import PagereaderError

    with needs_extra("service"):
        from pagereader.service.reviews.cases import export_data_dir

    probe_folder(out, output_hint(None))
    try:
        summary = export_data_dir(data_dir, out)
    except PagereaderError as exc:
        raise fail(error_line(exc), 2) from None
    typer.echo(f"{summary.cases} page(s) from {summary.jobs} job(s) -> {out / 'manifest.jsonl'}")
