"""A document whose text the verifier flags is never reported silently as fine: the summary of
``pagereader parse`` counts the flagged blocks and names the review file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fixtures import Fixtures


def test_flagged_blocks_are_named_in_the_summary(tmp_path: Path, fixtures: Fixtures) -> None:
    # forcing Traditional Chinese on the Korean scan page makes its text implausible
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pagereader",
            "parse",
            str(fixtures.scan_pdf),
            "--pages",
            "3",
            "--lang",
            "zh-Hant",
            "-o",
            str(tmp_path),
            "--no-resume",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "COLUMNS": "200"},
        check=False,
    )
    folder = next(p for p in tmp_path.iterdir() if p.is_dir() and not p.name.startswith("."))
    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    flagged = [
        b
        for page in document["pages"]
        for b in page["blocks"]
        if b["verdict"] and b["verdict"]["outcome"] == "review"
    ]
    assert flagged, "forcing the wrong script must flag the page's blocks"
    assert f"review {len(flagged)} block(s) flagged" in done.stderr
    assert "review.md" in done.stderr
