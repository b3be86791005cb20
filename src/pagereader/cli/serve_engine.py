"""``pagereader serve-engine``: the embedded engines behind an OpenAI-compatible API."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

DEFAULT_MODEL = "pagereader/embedded"


def serve_engine_command(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    model: Annotated[str, typer.Option(help="model name listed at /v1/models")] = DEFAULT_MODEL,
    ocr: Annotated[
        str, typer.Option(help="embedded OCR for text prompts: rapidocr or tesseract")
    ] = "rapidocr",
    debug: Annotated[bool, typer.Option(help="debug logs")] = False,
) -> None:
    """Serve /v1/models and /v1/chat/completions, answering the paddleocr-vl task prompts
    ("OCR:", "Table Recognition:", ...) with the embedded engines; no GPU needed."""
    import uvicorn

    from pagereader.service.engine_api import create_app

    if ocr not in ("rapidocr", "tesseract"):
        typer.echo(f"error: --ocr must be rapidocr or tesseract, got {ocr!r}", err=True)
        raise typer.Exit(2)
    logging.basicConfig(level=logging.DEBUG if debug else logging.WARNING)
    uvicorn.run(
        create_app(model=model, ocr=ocr),
        host=host,
        port=port,
        log_level="debug" if debug else "info",
    )
