"""`pagereader plan calibrate`: fit the time model's engine constants to real endpoints."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.messages import error_line, fail, reading_options, setup_logging, writing
from pagereader.planner.calibrate_series import BATCH, BATCH_ROUNDS, CROP, MIN_REQUESTS


def _size(text: str) -> tuple[int, int]:
    from pagereader.errors import ConfigError

    match = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", text)
    if match is None or min(int(match.group(1)), int(match.group(2))) < 56:
        raise ConfigError(
            f"cannot read crop size {text!r}", hint="write WIDTHxHEIGHT, at least 56 a side"
        )
    return int(match.group(1)), int(match.group(2))


def calibrate_command(
    config: Annotated[Path, typer.Option(help="TOML config whose openai engines are probed")],
    requests: Annotated[
        int,
        typer.Option(
            min=MIN_REQUESTS,
            help=(
                f"Timed requests an endpoint ({BATCH * len(BATCH_ROUNDS)} of them in "
                f"{len(BATCH_ROUNDS)} rounds of {BATCH})"
            ),
        ),
    ] = MIN_REQUESTS,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the constants")] = Path(
        "calib.json"
    ),
    crop: Annotated[
        str, typer.Option(help="WIDTHxHEIGHT of the synthetic page crop sent")
    ] = f"{CROP[0]}x{CROP[1]}",
) -> None:
    """Send a short series of requests to each endpoint and fit prefill and decode costs."""
    from pagereader.config.file import load_config
    from pagereader.config.options import OpenAIEngineOptions
    from pagereader.errors import PagereaderError
    from pagereader.planner.calibrate import calibrate_endpoints

    setup_logging()
    try:
        size = _size(crop)
        with reading_options():
            options = load_config(config)
        engines = {
            name: e for name, e in options.engines.items() if isinstance(e, OpenAIEngineOptions)
        }
        if not engines:
            raise fail(f"{config}: no openai engines to calibrate", 2)
        document = calibrate_endpoints(engines, requests, size)
    except PagereaderError as err:
        raise fail(error_line(err)) from None
    with writing(out, "--out"):
        out.write_text(json.dumps(document, indent=2), encoding="utf-8")
    for name, e in document["endpoints"].items():
        typer.echo(
            f"{name} ({e['model']}): fixed {e['fixed_ms']:.1f} ms, prefill "
            f"{e['prefill_ms_per_1k']:.1f} ms a 1k tokens, decode {e['decode_ms_batch1']:.2f} ms "
            f"a step at batch 1 and {e['decode_ms_batch8']:.2f} at batch {BATCH} "
            f"(residual {e['residual_ms']:.1f} ms)"
        )
        for warning in e["warnings"]:
            typer.echo(f"warning: {name}: {warning}", err=True)
    typer.echo(f"wrote {out}")
