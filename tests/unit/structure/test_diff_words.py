"""Words compared as each script writes them: a Han character alone, a Korean eojeol, an
English word; a run that differs only in spacing or glyph form is no change; the critical
tokens that change are the verifier's, named in its notation; a document without articles is
compared as running text with pages; diff.md lists critical changes first."""

from __future__ import annotations

from pagereader.structure.diff.compare import diff_documents
from pagereader.structure.diff.diff_report import diff_markdown
from pagereader.structure.diff.words import diff_patterns, hunks, words
from pagereader.structure.tree import build_structure
from pagereader.types import Block, BlockResult, DocumentResult, PageResult, TextLine

PATTERNS = diff_patterns()


def _changes(old: str, new: str) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(h.old, h.new, h.critical) for h in hunks(old, new, PATTERNS)]


def test_words_per_script() -> None:
    assert [w.key for w in words("第3條 住戶得使用")] == list("第3條住戶得使用")
    assert [w.key for w in words("신청인은 할 수 있다.")] == ["신청인은", "할", "수", "있다", "."]
    assert [w.key for w in words("제4조의2에 따라")] == ["제4조의2에", "따라"]
    assert [w.key for w in words("shall pay 3,000.50 (30%)")] == [
        "shall", "pay", "3,000.50", "(", "30%", ")"
    ]  # fmt: skip


def test_modal_words_numbers_and_cited_articles() -> None:
    assert _changes("住戶得預約會議室", "住戶應預約會議室") == [("得", "應", ("得->應",))]
    assert _changes("住戶不得任意移動", "住戶得任意移動") == [("不", "", ("不得->得",))]
    assert _changes("신청인은 할 수 있다.", "신청인은 하여야 한다.") == [
        ("할 수 있다", "하여야 한다", ("할수있다->하여야한다",))
    ]
    old, new = "The Processor may act within 30 days.", "The Processor shall act within 45 days."
    assert _changes(old, new) == [
        ("may", "shall", ("may->shall",)),
        ("30", "45", ("30->45",)),
    ]  # fmt: skip
    assert _changes("依第三十二條規定", "依第三十三條規定") == [
        ("二", "三", ("第三十二條->第三十三條",))
    ]
    assert _changes("保證金新臺幣三萬元", "保證金新臺幣五萬元") == [("三", "五", ("三萬->五萬",))]


def test_spacing_and_glyph_forms_are_no_change() -> None:
    assert hunks("할 수 있다", "할수 있다", PATTERNS) == []
    assert hunks("第 30 條，為限", "第30條,為限", PATTERNS) == []
    assert hunks("爲限", "為限", PATTERNS) == []


def test_a_change_without_critical_tokens() -> None:
    (hunk,) = hunks("住戶使用公共設施", "住戶利用公共設施", PATTERNS)
    assert (hunk.old, hunk.new, hunk.critical, hunk.before, hunk.after) == (
        "使", "利", (), "住戶", "用公共設施"
    )  # fmt: skip


def _page(index: int, *texts: str) -> PageResult:
    blocks = []
    for order, text in enumerate(texts):
        box = (10.0, 10.0 + 30 * order, 500.0, 30.0 + 30 * order)
        lines = tuple(TextLine(text=line, bbox=box) for line in text.split("\n"))
        block = Block(kind="text", bbox=box, order=order, lines=lines)
        blocks.append(BlockResult(block=block, text=text))
    return PageResult(index=index, width=595.0, height=842.0, blocks=tuple(blocks))


def _doc(*pages: PageResult) -> DocumentResult:
    return DocumentResult(
        schema_version="2.0", source="memo.pdf", status="ok", page_count=len(pages), pages=pages
    )


def test_without_articles_the_text_is_compared_with_pages() -> None:
    old = _doc(_page(1, "The vendor may audit the logs."), _page(2, "Fees are due in 30 days."))
    new = _doc(_page(1, "The vendor may audit the logs."), _page(2, "Fees are due in 14 days."))
    diff = diff_documents(old, new, PATTERNS)
    assert diff.mode == "text"
    (change,) = diff.changes
    assert (change.kind, change.old_pages, change.new_pages, change.critical) == (
        "changed", (2,), (2,), ("30->14",)
    )  # fmt: skip
    assert diff_documents(old, old, PATTERNS).changes == ()
    assert "**No changes.**" in diff_markdown(diff_documents(old, old, PATTERNS))


def test_diff_md_puts_critical_changes_first() -> None:
    old = _doc(_page(1, "Intro text here.", "The vendor may audit the logs.", "Last line."))
    new = _doc(_page(1, "Intro words here.", "The vendor must audit the logs.", "Last line"))
    md = diff_markdown(diff_documents(old, new, PATTERNS))
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    assert sections == ["## Critical changes", "## Changed passages", "## Punctuation only"]
    assert "<del>may</del><ins>must</ins>" in md and "`may->must`" in md


def test_a_change_names_the_item_it_is_in() -> None:
    """Two versions of a Korean article read into trees by the tree builder: the changed
    words sit in subparagraph 2 of paragraph 1 (``art-2/p1/s2``) in both."""

    def version(modal: str) -> DocumentResult:
        page = _page(
            1,
            "제1조(목적) 이 법은 목적을 정한다.",
            "제2조(신고)",
            "① 다음 각 호의 자는 신고하여야 한다.",
            "1. 국가기관",
            f"2. 지방자치단체의 장은 보고{modal}",
            "② 그 밖의 사항은 대통령령으로 정한다.",
        )
        return _doc(page).model_copy(update={"structure": build_structure([page])})

    diff = diff_documents(version("할 수 있다."), version("하여야 한다."), PATTERNS)
    (change,) = diff.changes
    (hunk,) = change.hunks
    assert (hunk.old_item, hunk.new_item) == ("art-2/p1/s2", "art-2/p1/s2")
    assert "in art-2/p1/s2: " in diff_markdown(diff)


def test_when_only_one_version_has_articles_both_are_compared_as_text() -> None:
    numbered = _page(1, "第一條　住戶得使用會議室。", "第二條　本規約自公告日施行。")
    plain = _page(1, "住戶應使用會議室。", "本規約自公告日施行。")
    old = _doc(numbered).model_copy(update={"structure": build_structure([numbered])})
    diff = diff_documents(old, _doc(plain), PATTERNS)
    assert diff.mode == "text"
    assert diff.notes == (
        "only the old version numbers its articles (2); the versions were compared as running text",
    )
    assert [c.critical for c in diff.changes] == [("-第一條",), ("得->應",), ("-第二條",)]


def test_text_outside_the_articles_is_compared_too() -> None:
    """A date line read with the first article as one block (as OCR reads a code-book page): its
    changed date is a critical change of a passage, the articles themselves unchanged."""

    def version(year: str) -> DocumentResult:
        page = _page(
            1,
            f"修正日期：民國 {year} 年 01 月 20 日\n第一條\n住戶得使用會議室。",
            "第二條\n本規約自公告日施行。",
        )
        return _doc(page).model_copy(update={"structure": build_structure([page])})

    diff = diff_documents(version("110"), version("112"), PATTERNS)
    assert diff.mode == "articles" and diff.summary.unchanged == 2
    (change,) = diff.changes
    assert (change.unit, change.kind, change.critical) == ("passage", "changed", ("110->112",))
    assert (change.old_pages, change.new_pages) == ((1,), (1,))
