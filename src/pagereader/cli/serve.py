"""``pagereader serve``: the document service (upload, poll, fetch) over HTTP."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import error_line, fail, reading_options


def serve_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8080,
    data_dir: Annotated[
        Path, typer.Option(help="where jobs, uploads, outputs and the page cache live")
    ] = Path("pagereader-data"),
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    workers: Annotated[int, typer.Option(min=1, max=64, help="documents parsed at once")] = 1,
    token_file: Annotated[
        Path | None,
        typer.Option(help="API tokens, one NAME:ROLE:TOKEN line each (also PAGEREADER_TOKENS)"),
    ] = None,
    max_upload_mb: Annotated[
        float, typer.Option(min=0.001, help="largest upload in MiB, enforced while streaming")
    ] = 200,
    max_pages: Annotated[int, typer.Option(min=1, help="most pages one job may have")] = 1000,
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(help="a browser origin allowed to call the API (CORS); repeatable"),
    ] = None,
    docs: Annotated[
        bool, typer.Option(help="serve /docs and /openapi.json, behind the tokens")
    ] = False,
    shutdown_grace: Annotated[
        float,
        typer.Option(
            min=0,
            help="seconds running jobs may take to finish on SIGTERM; the rest are queued again",
        ),
    ] = 30,
    log_format: Annotated[
        str, typer.Option(help="text, or json (one object a line, with the job id)")
    ] = "text",
    debug: Annotated[bool, typer.Option(help="debug logs")] = False,
) -> None:
    """Serve POST /v1/documents and GET /v1/jobs/{id}, .../document.md, .../document.json;
    jobs live in DATA_DIR/jobs.sqlite and survive a restart. Without tokens only a loopback
    address is served."""
    with needs_extra("service"):
        import uvicorn

        from pagereader.http.auth import TokenStore, check_bind
        from pagereader.service.app import create_app
        from pagereader.service.data_lock import DataDirInUseError
        from pagereader.service.logs import configure_logging
        from pagereader.service.policy import MIB, ServiceLimits
    from pagereader.config.settings import resolve_options, service_tokens
    from pagereader.errors import PagereaderError

    if log_format not in ("text", "json"):
        raise fail("--log-format is text or json", 2)
    log_config = configure_logging(logging.DEBUG if debug else logging.INFO, log_format == "json")
    try:
        tokens = TokenStore.load(token_file, service_tokens())
        check_bind(host, tokens)
        limits = ServiceLimits(
            max_upload_bytes=int(max_upload_mb * MIB),
            max_pages=max_pages,
            allowed_origins=tuple(allow_origin or ()),
            docs=docs,
            shutdown_grace_s=shutdown_grace,
        )
        with reading_options():
            options = resolve_options(config)
        app = create_app(data_dir, options, workers=workers, limits=limits, tokens=tokens)
    except DataDirInUseError as exc:  # not a usage error: the same command works later
        raise fail(error_line(exc), 1) from None
    except PagereaderError as exc:
        raise fail(error_line(exc), 2) from None
    logger = logging.getLogger(__name__)
    if tokens:
        logger.info("%d API token(s) loaded", len(tokens))
    else:
        logger.warning("no API tokens: every local user and program may read and delete jobs")
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="debug" if debug else "info",
        log_config=log_config,
        proxy_headers=True,
    )
