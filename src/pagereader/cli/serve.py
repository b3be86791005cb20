"""``pagereader serve``: the document service (upload, poll, fetch) over HTTP."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer


def serve_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8080,
    data_dir: Annotated[
        Path, typer.Option(help="where jobs, uploads, outputs and the page cache live")
    ] = Path("pagereader-data"),
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, help="documents parsed at once")] = 1,
    debug: Annotated[bool, typer.Option(help="debug logs")] = False,
) -> None:
    """Serve POST /v1/documents and GET /v1/jobs/{id}[/document.md|document.json|...]; jobs
    live in DATA_DIR/jobs.sqlite and survive a restart."""
    import uvicorn

    from pagereader.errors import PagereaderError
    from pagereader.service.app import create_app
    from pagereader.settings import resolve_options

    logging.basicConfig(
        level=logging.DEBUG if debug else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        app = create_app(data_dir, resolve_options(config), workers=workers)
    except PagereaderError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="debug" if debug else "info",
    )
