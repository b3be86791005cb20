"""The ``pagereader`` command: one module per subcommand, mounted here, each behind
:func:`~pagereader.cli.messages.one_line_errors` (``plan``'s commands in their own module)."""

from __future__ import annotations

import typer

from pagereader.cli import plan
from pagereader.cli.batch import batch_command
from pagereader.cli.bench import bench_command
from pagereader.cli.diff import diff_command
from pagereader.cli.doctor import doctor_command
from pagereader.cli.eval import eval_command, make_evalset_command
from pagereader.cli.export_docling import export_docling_command
from pagereader.cli.export_evalset import export_evalset_command
from pagereader.cli.mcp import mcp_command
from pagereader.cli.messages import one_line_errors
from pagereader.cli.parse import parse_command
from pagereader.cli.router_config import router_config_command
from pagereader.cli.schema import schema_command
from pagereader.cli.serve import serve_command
from pagereader.cli.serve_engine import serve_engine_command
from pagereader.heap import bound_heap

app = typer.Typer(
    name="pagereader",
    help="Read slide decks, PDFs and scans into faithful Markdown and JSON.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    # help texts are plain text: "[...]" in a docstring must never be read as rich markup
    rich_markup_mode=None,
    add_completion=False,
)
app.command("parse")(one_line_errors(parse_command))
app.command("batch")(one_line_errors(batch_command))
app.command("diff")(one_line_errors(diff_command))
app.command("serve")(one_line_errors(serve_command))
app.command("serve-engine")(one_line_errors(serve_engine_command))
app.command("router-config")(one_line_errors(router_config_command))
app.add_typer(plan.app, name="plan")
app.command("eval")(one_line_errors(eval_command))
app.command("make-evalset")(one_line_errors(make_evalset_command))
app.command("bench")(one_line_errors(bench_command))
app.command("export-evalset")(one_line_errors(export_evalset_command))
app.command("export-docling")(one_line_errors(export_docling_command))
app.command("mcp")(one_line_errors(mcp_command))
app.command("schema")(one_line_errors(schema_command))
app.command("doctor")(one_line_errors(doctor_command))


def main() -> None:
    """Console entry point: the heap is bounded before any thread starts."""
    bound_heap()
    app()
