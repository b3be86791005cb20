"""``pagereader serve-engine``: the embedded engines behind an OpenAI-compatible API."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import error_line, fail, reading_options, setup_logging

DEFAULT_MODEL = "pagereader/embedded"


def serve_engine_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    model: Annotated[str, typer.Option(help="model name listed at /v1/models")] = DEFAULT_MODEL,
    ocr: Annotated[
        str, typer.Option(help="embedded OCR for text prompts: rapidocr or tesseract")
    ] = "rapidocr",
    config: Annotated[
        Path | None, typer.Option(help="TOML config; its render.max_image_pixels caps images")
    ] = None,
    max_request_mb: Annotated[
        float, typer.Option(min=0.001, help="largest request body in MiB")
    ] = 64,
    max_image_memory_mb: Annotated[
        float,
        typer.Option(
            min=1,
            help="MiB of memory for images being read at once, all requests together: about "
            "8 bytes a pixel (the decoded image and the engines' working copies); a request "
            "past it waits its turn, an image larger than it runs alone",
        ),
    ] = 512,
    token_file: Annotated[
        Path | None,
        typer.Option(help="API keys, one NAME:ROLE:TOKEN line each (also PAGEREADER_TOKENS)"),
    ] = None,
    debug: Annotated[bool, typer.Option(help="debug logs")] = False,
) -> None:
    """Serve /v1/models and /v1/chat/completions, answering the paddleocr-vl task prompts
    ("OCR:", "Table Recognition:", ...) with the embedded engines; no GPU needed."""
    with needs_extra("service"):
        import uvicorn

        from pagereader.engine_server.server import create_app
        from pagereader.http.auth import TokenStore, check_bind
    from pagereader.config.settings import resolve_options, service_tokens
    from pagereader.errors import PagereaderError

    if ocr not in ("rapidocr", "tesseract"):
        raise fail(f"--ocr must be rapidocr or tesseract, got {ocr!r}", 2)
    try:
        with reading_options():
            options = resolve_options(config)
        tokens = TokenStore.load(token_file, service_tokens())
        check_bind(host, tokens, exposed="run the OCR engines at will")
    except PagereaderError as exc:
        raise fail(error_line(exc), 2) from None
    setup_logging(debug)
    app = create_app(
        model=model,
        ocr=ocr,
        max_image_pixels=options.render.max_image_pixels,
        max_request_bytes=int(max_request_mb * 1024 * 1024),
        tokens=tokens,
        image_memory_bytes=int(max_image_memory_mb * 1024 * 1024),
    )
    uvicorn.run(app, host=host, port=port, log_level="debug" if debug else "info")
