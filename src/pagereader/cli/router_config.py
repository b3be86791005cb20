"""``pagereader router-config``: the vLLM Semantic Router config for a pagereader config."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pagereader.cli.extras import needs_extra
from pagereader.cli.messages import print_or_write, reading_options


def router_config_command(
    config: Annotated[Path, typer.Option(help="pagereader TOML config (engines, routes, router)")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the YAML here")] = None,
) -> None:
    """Write the router's YAML (vllm-sr config v0.3) from the same route table the pipeline
    uses, so routing in the client and in the router cannot disagree."""
    from pagereader.config.options import OpenAIEngineOptions
    from pagereader.config.settings import resolve_options
    from pagereader.engines.prompts import prompt_set_digest

    with needs_extra("router"):
        from pagereader.planner.router import router_config_yaml
    with reading_options():
        options = resolve_options(config)
    served = [e for e in options.engines.values() if isinstance(e, OpenAIEngineOptions)]
    text = router_config_yaml(options, prompt_set_digest(served))
    print_or_write(text, out, f"; check it with: vllm-sr config validate --config {out}")
