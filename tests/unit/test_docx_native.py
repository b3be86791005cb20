"""DOCX read from its OOXML: where pages break, merged table cells, Strict OOXML."""

from __future__ import annotations

import zipfile
from pathlib import Path

from pagereader.sources.docx_native import read_docx
from pagereader.text.tables import html_to_table

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"


def _docx(path: Path, body: str, ns: str = _W) -> Path:
    document = f'<w:document xmlns:w="{ns}"><w:body>{body}</w:body></w:document>'
    with zipfile.ZipFile(path, "w") as package:
        package.writestr("word/document.xml", document)
    return path


def _p(text: str, inner: str = "") -> str:
    return f"<w:p><w:r>{inner}<w:t>{text}</w:t></w:r></w:p>"


def _texts(path: Path) -> list[list[str]]:
    return [[r.text for r in page] for page in read_docx(path).pages]


def test_pages_break_where_the_file_says_and_nowhere_else(tmp_path: Path) -> None:
    recorded = "<w:lastRenderedPageBreak/>"
    section_end = "<w:p><w:pPr><w:sectPr/></w:pPr></w:p>"  # a section whose type is new page
    body = "".join(
        [
            _p("one"),
            _p("two", recorded),  # Word laid "two" out at the top of a new page
            section_end,  # the section after it starts on a new page (its own sectPr says so)
            _p("three"),
            '<w:p><w:r><w:t>four</w:t><w:br w:type="page"/></w:r></w:p>',  # break after its text
            _p("five"),
            section_end,  # the last section is continuous: no break before "six"
            _p("six"),
            "<w:p><w:pPr><w:pageBreakBefore/></w:pPr><w:r><w:t>seven</w:t></w:r></w:p>",
            '<w:sectPr><w:type w:val="continuous"/></w:sectPr>',
        ]
    )
    assert _texts(_docx(tmp_path / "a.docx", body)) == [
        ["one"],
        ["two"],
        ["three", "four"],
        ["five", "six"],
        ["seven"],
    ]


def test_no_break_is_one_page(tmp_path: Path) -> None:
    path = _docx(tmp_path / "b.docx", _p("alpha") + _p("beta") + _p("gamma"))
    assert _texts(path) == [["alpha", "beta", "gamma"]]
    boxes = [r.block.bbox for r in read_docx(path).pages[0]]
    assert [b[1] for b in boxes] == sorted(b[1] for b in boxes)  # bands in reading order


def test_merged_cells_keep_their_spans(tmp_path: Path) -> None:
    def cell(text: str, props: str = "") -> str:
        return f"<w:tc><w:tcPr>{props}</w:tcPr>{_p(text)}</w:tc>"

    rows = [
        cell("A") + cell("B", '<w:gridSpan w:val="2"/>'),
        cell("C", '<w:vMerge w:val="restart"/>') + cell("D") + cell("E"),
        cell("", "<w:vMerge/>") + cell("F") + cell("G"),
    ]
    body = "<w:tbl>" + "".join(f"<w:tr>{row}</w:tr>" for row in rows) + "</w:tbl>"
    (result,) = read_docx(_docx(tmp_path / "c.docx", body)).pages[0]
    assert result.html is not None
    table = html_to_table(result.html)  # a second reader of the written grid
    spans = {(c.text, c.row, c.col, c.row_span, c.col_span) for c in table.cells}
    assert ("B", 0, 1, 1, 2) in spans and ("C", 1, 0, 2, 1) in spans and ("G", 2, 2, 1, 1) in spans


def test_strict_ooxml_reads_as_transitional(tmp_path: Path) -> None:
    path = _docx(tmp_path / "d.docx", _p("strict text"), ns=_STRICT)
    assert _texts(path) == [["strict text"]]
