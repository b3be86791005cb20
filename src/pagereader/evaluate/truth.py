"""Ground truth of generated documents: the exact text of every page, its language, its
tables and its furniture (running headers, page numbers)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict


class PageTruth(BaseModel):
    """The exact text of one page in reading order, its language, and what else it holds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    page: int
    lang: str
    text: str
    notes: str = ""
    tables_html: tuple[str, ...] = ()
    furniture: tuple[str, ...] = ()

    @property
    def body(self) -> str:
        """The text without running headers and page numbers (what Markdown output keeps)."""
        skip = set(self.furniture)
        return "\n".join(line for line in self.text.splitlines() if line not in skip)


class DocTruth(BaseModel):
    """Ground truth of one generated file, page by page."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    file: str
    pages: tuple[PageTruth, ...]

    def write(self, out_dir: Path, *, page_texts: bool = True) -> None:
        """Write ``<file>.truth.json`` and, unless told not to, ``<stem>.pN.txt`` per page."""
        target = out_dir / f"{self.file}.truth.json"
        target.write_text(self.model_dump_json(indent=2) + "\n", encoding="utf-8")
        if not page_texts:
            return
        stem = Path(self.file).stem
        for page in self.pages:
            (out_dir / f"{stem}.p{page.page}.txt").write_text(page.text + "\n", encoding="utf-8")

    @classmethod
    def read(cls, path: Path) -> DocTruth:
        """Load a ``.truth.json`` written by `write`."""
        return cls.model_validate_json(path.read_text(encoding="utf-8"))
