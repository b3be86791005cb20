"""``pagereader mcp``: the MCP server (stdio for a local client, streamable HTTP behind the
service's tokens) whose tools parse and read documents under the allowed roots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import error_line, fail, reading_options, setup_logging


def mcp_command(
    root: Annotated[
        list[Path] | None,
        typer.Option(help="a folder whose documents the tools may read; repeatable"),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="where parsed documents are written")
    ] = Path("pagereader-mcp"),
    transport: Annotated[str, typer.Option(help="stdio, or http (streamable HTTP)")] = "stdio",
    host: Annotated[str, typer.Option(help="address to listen on (http)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on (http)")] = 8765,
    token_file: Annotated[
        Path | None,
        typer.Option(help="API tokens, one NAME:ROLE:TOKEN line each (also PAGEREADER_TOKENS)"),
    ] = None,
    config: Annotated[Path | None, typer.Option(help="TOML config (engines, routes)")] = None,
    max_upload_mb: Annotated[
        float, typer.Option(min=0.001, help="largest document file or upload in MiB")
    ] = 200,
    max_pages: Annotated[int, typer.Option(min=1, help="most pages one document may have")] = 1000,
    max_chars: Annotated[
        int, typer.Option(min=100, help="most Markdown characters one answer holds")
    ] = 40_000,
    max_results: Annotated[int, typer.Option(min=1, help="most chunks one answer holds")] = 20,
    debug: Annotated[bool, typer.Option(help="debug logs (on stderr)")] = False,
) -> None:
    """Serve the tools parse, read_page, get_article, list_chunks and search_chunks over the
    Model Context Protocol. Paths are confined to the --root folders; outputs go to OUT. Over
    HTTP (at /mcp) a token with the reviewer role is needed; without tokens only a loopback
    address is served."""
    with needs_extra("mcp"):
        from pagereader.http.auth import TokenStore, check_bind
        from pagereader.integrations.mcp_server import run_http, run_stdio
    from pagereader.config.settings import resolve_options, service_tokens
    from pagereader.errors import PagereaderError
    from pagereader.integrations.roots import Roots
    from pagereader.integrations.workspace import MIB, Limits, Workspace

    if transport not in ("stdio", "http"):
        raise fail(f"--transport is stdio or http, got {transport!r}", 2)
    setup_logging(debug)
    try:
        roots = Roots(root or [])
        if not roots:
            raise fail("give at least one --root DIR: the folder whose documents may be read", 2)
        with reading_options():
            options = resolve_options(config)
        limits = Limits(
            max_file_bytes=int(max_upload_mb * MIB),
            max_pages=max_pages,
            max_markdown_chars=max_chars,
            max_results=max_results,
        )
        tokens = TokenStore.load(token_file, service_tokens()) if transport == "http" else None
        if tokens is not None:
            check_bind(host, tokens, exposed="parse and read every document under the roots")
        workspace = Workspace(roots, out, options, limits)
    except PagereaderError as exc:
        raise fail(error_line(exc), 2) from None
    if tokens is None:
        run_stdio(workspace)
    else:
        run_http(workspace, tokens, host, port)
