"""The Python API inside a running event loop, review.md of a failed document, and the
OpenCV build an install with extras ends up with."""

from __future__ import annotations

import re
from pathlib import Path

import pagereader
from adversarial.conftest import REPO
from adversarial.documents import text_pdf
from pagereader.pipeline import aparse_to_folder, make_context


async def test_parse_inside_a_running_loop(tmp_path: Path) -> None:
    pdf = text_pdf(tmp_path / "a.pdf", pages=2, title="Looped")
    result = pagereader.parse(pdf)  # as in a notebook cell or an async handler
    assert result.status == "ok"
    assert "Looped page 2" in result.markdown


async def test_review_of_a_failed_document(tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nthis is not a PDF body\n")
    result = await aparse_to_folder(broken, tmp_path / "out", make_context())
    assert result.status == "failed"
    review = (tmp_path / "out" / "review.md").read_text(encoding="utf-8")
    assert "Nothing to review" not in review
    assert "## Errors" in review and "broken.pdf" in review


def _recipe(makefile: str, target: str) -> str:
    match = re.search(rf"^{re.escape(target)}:.*\n((?:\t.*\n)*)", makefile, re.M)
    assert match, f"no {target} target"
    return match.group(0)


def test_every_install_target_keeps_opencv_headless() -> None:
    """rapid-layout requires opencv-python: any target that installs the project (with or
    without extras) must put the headless build back, or two OpenCVs fight over cv2."""
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    installing = re.findall(
        r"^([\w-]+):.*\n(?:\t.*\n)*?\t(?:\$\(PIP_INSTALL\)|\$\(PIP\) install) .*-e ", makefile, re.M
    )
    assert {"install", "install-service", "install-test"} <= set(installing)
    for target in installing:
        recipe = _recipe(makefile, target)
        assert "opencv-headless" in recipe.splitlines()[-1], target
