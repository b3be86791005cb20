"""The plan report as text: the what-fits-where table, each layout's commands and warnings,
the critical path of a slide and the platform notes (the report itself is reporting.py)."""

from __future__ import annotations

from pagereader.planner.catalog import get_model
from pagereader.planner.memory import GB, weights_bytes
from pagereader.planner.reporting import PathReport, PlanReport


def table_rows(report: PlanReport) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the what-fits-where table: a model a row, a GPU set a column."""
    header = ["Model", "BF16 weights", "INT4 weights", *report.gpus]
    cells = {(c.model, c.gpus): c.cell for c in report.table}
    rows = []

    for key in report.models:
        model = get_model(key)
        rows.append(
            [
                key,
                f"{weights_bytes(model, 'bf16') / GB:.1f} GB",
                f"{weights_bytes(model, 'int4') / GB:.1f} GB",
                *(cells[(key, g)] for g in report.gpus),
            ]
        )
    return header, rows


def path_lines(path: PathReport) -> list[str]:
    """The critical path as lines: each term with its seconds and its source."""
    lines = [f"Critical path of a slide: {path.seconds:.2f} s ({path.profile} constants)"]
    lines += [f"- cpu {t.name}: {t.seconds:.3f} s" for t in path.cpu]
    for g in path.groups:
        mark = "in turn" if path.serial else None
        mark = mark or ("critical" if g.engine == path.bottleneck else "in parallel")
        lines.append(f"- {g.engine} ({mark}): {g.seconds:.3f} s")
        lines += [f"  - {t.name}: {t.seconds:.3f} s [{', '.join(t.uses)}]" for t in g.terms]
    lines += ["", "Constants:"]
    lines += [f"- {c.name} = {c.value:g} {c.unit}: {c.source}" for c in path.constants]
    return lines


_UNIT = {"tpu": "chip", "apple": "GPU"}


def markdown(report: PlanReport) -> str:
    """The table, each layout's commands and warnings, and the platform notes."""
    header, rows = table_rows(report)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    for lay in report.layouts:
        verdict = "meets" if lay.meets_target else "misses"
        out += [
            "",
            f"### {lay.gpus}: estimated {lay.slide_s:.1f} s a slide ({verdict} {lay.target_s:g} s)",
            "",
        ]
        for inst in lay.instances:
            out.append(
                f"- {_UNIT.get(lay.platform, 'card')} {','.join(map(str, inst.cards))}: "
                f"{inst.model} {inst.dtype.upper()} TP{inst.tp}, port {inst.port}, "
                f"~{inst.concurrency} concurrent requests, decode at most "
                f"{inst.decode_tokens_per_s_bound:g} tokens/s"
            )
        out += ["", "```bash", *(i.command for i in lay.instances), "```"]
        if lay.critical_path is not None:
            out += ["", *path_lines(lay.critical_path)]
        out += [f"- warning: {w}" for w in lay.warnings]
    out += ["", "Platform notes:"]
    for note in report.notes:
        out.append(f"- {note.name}, {note.memory}")
        out += [f"  - verified: {v}" for v in note.verified]
        out += [f"  - hypothesis: {h}" for h in note.hypotheses]
    return "\n".join(out) + "\n"
