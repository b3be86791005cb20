"""`pagereader plan`: what fits where, the serve commands, and a config for the layout."""

from __future__ import annotations

import re
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from pagereader.cli.messages import error_line, fail, one_line_errors, writing
from pagereader.cli.plan_calibrate import calibrate_command
from pagereader.planner.memory import PAGE_H, PAGE_W
from pagereader.planner.slide import DEFAULT_SLIDE

if TYPE_CHECKING:
    from pagereader.errors import ConfigError
    from pagereader.planner.reporting import PlanReport

app = typer.Typer(
    help="Plan serving: memory budgets, what fits where, vllm serve commands.",
    invoke_without_command=True,
    no_args_is_help=False,
    rich_markup_mode=None,
)

DEFAULT_LAYOUT_MODELS = "parser,qwen3-vl-8b"


class Format(StrEnum):
    table = "table"
    json = "json"
    markdown = "markdown"


def _fail(err: ConfigError) -> typer.Exit:
    return fail(error_line(err), 2)


def _print_table(report: PlanReport) -> None:
    from pagereader.planner.report_text import path_lines, table_rows

    console = Console(width=200)
    header, rows = table_rows(report)
    table = Table(*header, title="What fits where")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    for lay in report.layouts:
        verdict = "meets" if lay.meets_target else "misses"
        console.print(
            f"\n[bold]{lay.gpus}[/bold]: about {lay.slide_s:.1f} s a slide "
            f"({verdict} the {lay.target_s:g} s target)"
        )
        for inst in lay.instances:
            console.print(inst.command, markup=False, highlight=False)
        if lay.critical_path is not None:
            console.print("")
            for line in path_lines(lay.critical_path):
                console.print(line, markup=False, highlight=False)
        for warning in lay.warnings:
            console.print(f"warning: {warning}", markup=False, highlight=False)


def _print_known(fmt: Format) -> None:
    """Every accelerator kind with its figures and the names it answers to."""
    from pagereader.planner.hardware import known
    from pagereader.planner.reporting import accelerator_report

    rows = [accelerator_report(g) for g in known()]
    if fmt is Format.json:
        typer.echo("[" + ",\n".join(r.model_dump_json(indent=2) for r in rows) + "]")
        return
    header = ["key", "name", "platform", "memory GB", "planned GB", "GB/s", "TFLOPS", "aliases"]
    cells = [
        [
            r.key,
            r.name,
            r.platform,
            f"{r.memory_gb:g}",
            f"{r.planned_gb:g}",
            f"{r.bandwidth_gbs:g}",
            f"{r.tflops:g} {r.tflops_kind}",
            ", ".join(r.aliases),
        ]
        for r in rows
    ]
    if fmt is Format.markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        typer.echo("\n".join(lines + ["| " + " | ".join(c) + " |" for c in cells]))
        return
    table = Table(*header, title="Known accelerators (planned GB: what models may use)")
    for c in cells:
        table.add_row(*c)
    Console(width=200).print(table)
    typer.echo(
        "Also: 'A100' (the 80 GB card), 'Apple M1 Max' (its largest memory), TPU slices "
        "'tpu-v6e-8' / 'v5litepod-4', counts '8xTPU-v6e'."
    )


@app.callback()
@one_line_errors
def plan(
    ctx: typer.Context,
    gpus: Annotated[
        str,
        typer.Option(
            help="Accelerator sets, e.g. 2xA100-40, 2xA100-40,4xA100-80, 8xTPU-v6e, tpu-v6e-8, "
            "1xM1-Max-64, 'Apple M1 Max', 1xL4, 1xMI300X (--list names them all)"
        ),
    ] = "2xA100-40",
    list_kinds: Annotated[
        bool, typer.Option("--list", help="Print the accelerators the planner knows, and exit")
    ] = False,
    models: Annotated[
        str | None,
        typer.Option(help=f"Models to place (default {DEFAULT_LAYOUT_MODELS}; table: seed rows)"),
    ] = None,
    target_s: Annotated[float, typer.Option("--target-s", min=0.1, help="Seconds a slide")] = 5.0,
    fmt: Annotated[Format, typer.Option("--format", help="table, json or markdown")] = Format.table,
    emit_config_path: Annotated[
        Path | None,
        typer.Option("--emit-config", help="Write a pagereader engines/routes TOML for the layout"),
    ] = None,
    calibration: Annotated[
        Path | None,
        typer.Option(help="Engine constants from `pagereader plan calibrate` (calib.json)"),
    ] = None,
    timings: Annotated[
        Path | None,
        typer.Option(help="CPU stage seconds from a `pagereader bench` timings.json"),
    ] = None,
    blocks: Annotated[
        int, typer.Option(min=0, max=256, help="Block crops a slide sends the parser")
    ] = DEFAULT_SLIDE.blocks,
    block_tokens: Annotated[
        int, typer.Option(min=1, help="Output tokens of a block answer")
    ] = DEFAULT_SLIDE.block_output,
    figure_tokens: Annotated[
        int, typer.Option(min=1, help="Output tokens of a figure description")
    ] = DEFAULT_SLIDE.figure_output,
) -> None:
    """The what-fits-where table, a recommended layout, and its vllm serve commands."""
    if ctx.invoked_subcommand is not None:
        return
    if list_kinds:
        _print_known(fmt)
        return
    from pagereader.errors import ConfigError
    from pagereader.planner import (
        emit_config,
        fit,
        get_model,
        markdown,
        parse_gpus,
        plan_report,
        recommend,
    )
    from pagereader.planner.calibrate import read_calibration
    from pagereader.planner.catalog import SEED_TABLE_MODELS
    from pagereader.planner.slide import Estimate
    from pagereader.planner.timeconst import CPU_STAGES, VLLM, cpu_stages_from_timings

    try:
        sets = parse_gpus(gpus)
        layout_models = [get_model(m) for m in (models or DEFAULT_LAYOUT_MODELS).split(",") if m]
        table_models = layout_models if models else [get_model(m) for m in SEED_TABLE_MODELS]
        if emit_config_path is not None and len(sets) != 1:
            raise ConfigError("--emit-config needs exactly one GPU set in --gpus")
        estimate = Estimate(
            constants=VLLM,
            slide=replace(
                DEFAULT_SLIDE,
                blocks=blocks,
                block_output=block_tokens,
                figure_output=figure_tokens,
            ),
            cpu=cpu_stages_from_timings(timings) if timings else CPU_STAGES,
            calibration=read_calibration(calibration) if calibration else {},
        )
    except ConfigError as err:
        raise _fail(err) from err
    fits = [fit(m, s) for m in table_models for s in sets]
    layouts = [recommend(layout_models, s, target_s, estimate) for s in sets]
    report = plan_report(sets, table_models, fits, layouts)
    if emit_config_path is not None:
        with writing(emit_config_path, "--emit-config"):
            emit_config_path.write_text(emit_config(layouts[0]), encoding="utf-8")
    if fmt is Format.json:
        typer.echo(report.model_dump_json(indent=2))
    elif fmt is Format.markdown:
        typer.echo(markdown(report), nl=False)
    else:
        _print_table(report)


def _parse_image(text: str) -> tuple[int, int]:
    from pagereader.errors import ConfigError

    match = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", text)
    if match is None:
        raise ConfigError(
            f"cannot read image size {text!r}", hint="write WIDTHxHEIGHT, e.g. 1654x2339"
        )
    return int(match.group(1)), int(match.group(2))


@app.command("model")
@one_line_errors
def model_cmd(
    name: Annotated[str, typer.Argument(help="Model key, alias or repo id")],
    image: Annotated[str, typer.Option(help="Image size WIDTHxHEIGHT")] = f"{PAGE_W}x{PAGE_H}",
    max_pixels: Annotated[int | None, typer.Option("--max-pixels", min=1)] = None,
    min_pixels: Annotated[int | None, typer.Option("--min-pixels", min=1)] = None,
    fmt: Annotated[Format, typer.Option("--format", help="json or table")] = Format.json,
) -> None:
    """One model's facts: KV bytes a token, weights by precision, visual tokens of an image."""
    from pagereader.errors import ConfigError
    from pagereader.planner import get_model, model_report

    try:
        width, height = _parse_image(image)
        report = model_report(get_model(name), width, height, min_pixels, max_pixels)
    except ConfigError as err:
        raise _fail(err) from err
    if fmt is Format.json:
        typer.echo(report.model_dump_json(indent=2))
        return
    table = Table("fact", "value", title=report.repo)
    for key, value in report.model_dump().items():
        table.add_row(key, str(value))
    Console(width=200).print(table)


app.command("calibrate")(one_line_errors(calibrate_command))
