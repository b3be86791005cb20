"""``limits.max_pages``: a longer document fails when it is opened, in one line naming it,
before any page is rendered; the other documents of the run go on."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pagereader.cli.main import app

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_a_document_over_the_cap_fails_at_once_and_the_rest_go_on(tmp_path: Path) -> None:
    config = tmp_path / "cap.toml"
    config.write_text("[limits]\nmax_pages = 2\n", encoding="utf-8")
    out = tmp_path / "out"
    args = [str(EXAMPLES / "deck.pdf"), str(EXAMPLES / "scan.png"), "-o", str(out)]
    result = CliRunner().invoke(app, ["parse", *args, "--config", str(config)])
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("error")]
    assert len(errors) == 1, result.output
    assert "deck.pdf: 4 pages, over the limit of 2 pages per document" in errors[0]
    assert "limits.max_pages" in errors[0]
    assert not list((out / "deck").glob("pages/*.png"))  # no page of it was rendered
    assert (out / "scan" / "document.md").read_text(encoding="utf-8").strip()
