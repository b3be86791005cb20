"""Label columns: article numbers in a narrow left column are read with the row beside them."""

from __future__ import annotations

from pagereader.layout.label_columns import attach_labels
from pagereader.layout.line_text import block_text
from pagereader.layout.paragraphs import group_lines
from pagereader.layout.reading_order import order_blocks
from pagereader.types import TextLine

W, H = 595.0, 842.0
STEP = 20.0


def line(text: str, x0: float, row: int, x1: float, y_shift: float = 0.0) -> TextLine:
    """An OCR-like line box (no font size) on the given row, padded a little like OCR boxes."""
    y0 = 100 + row * STEP + y_shift
    return TextLine(text=text, bbox=(x0, y0, x1, y0 + 18))


def statute() -> tuple[list[TextLine], list[str]]:
    """The law.moj.gov.tw print layout: numbers at x=60, text at x=130, wrapping under itself."""
    labels = {0: "第 30 條", 3: "第 30-1 條", 5: "第 31 條", 6: "第 32 條"}
    body = [
        "勞工正常工作時間，每日不得超過八小時，每週不得超過四十小時。",
        "前項正常工作時間，雇主經工會同意，如事業單位無工會者，經勞資",
        "會議同意後，得將其二週內二日之正常工作時數分配於其他工作日。",
        "中央主管機關指定之行業，雇主經工會同意，如事業單位無工會者，",
        "其工作時間得依下列原則變更。",
        "在坑道或隧道內工作之勞工，以入坑口時起至出坑口時止為工作時間。",
        "雇主有使勞工在正常工作時間以外工作之必要者，得將工作時間延長之。",
    ]
    lines = [line(text, 130, row, 540) for row, text in enumerate(body)]
    # label boxes are a little lower than their row and reach into the text's box, as in OCR
    lines += [line(text, 60, row, 136, y_shift=-3) for row, text in labels.items()]
    expected = [
        labels[0] + " " + body[0] + body[1] + body[2],
        labels[3] + " " + body[3] + body[4],
        labels[5] + " " + body[5],
        labels[6] + " " + body[6],
    ]
    return lines, expected


def test_article_numbers_are_read_with_their_rows() -> None:
    lines, expected = statute()
    blocks = order_blocks(group_lines(attach_labels(lines), H), W, H)
    assert [block_text(b) for b in blocks] == expected


def test_without_joining_a_column_reader_separates_them() -> None:
    """The failure this guards against: the numbers read as a column of their own."""
    lines, expected = statute()
    blocks = order_blocks(group_lines(lines, H), W, H)
    texts = [block_text(b) for b in blocks]
    assert texts != expected
    assert not any(t.startswith("第 30 條 勞工") for t in texts)


def test_single_label_joins_when_the_text_wraps_under_itself() -> None:
    lines = [
        line("第 1 條", 60, 0, 110),
        line("本法依憲法第一百五十三條制定之，其施行細則由主管機關定之。", 130, 0, 540),
        line("未規定者，適用其他法律之規定。", 130, 1, 400),
    ]
    joined = attach_labels(lines)
    assert [ln.text for ln in joined] == [
        "第 1 條 本法依憲法第一百五十三條制定之，其施行細則由主管機關定之。",
        "未規定者，適用其他法律之規定。",
    ]
    assert joined[0].bbox == (60, 100, 540, 118)
    assert joined[0].starts_paragraph


def test_lone_short_line_beside_text_is_not_a_label() -> None:
    """A short line beside a paragraph whose next line returns under the short one is body
    text of a two-part row (a heading run-in), not a label column."""
    lines = [
        line("Summary", 60, 0, 120),
        line("The committee met twice and approved the budget.", 130, 0, 540),
        line("It also elected a new chair for the coming year.", 60, 1, 540),
    ]
    assert attach_labels(lines) == lines


def test_table_first_column_is_kept_apart() -> None:
    lines, _ = statute()
    table = (0.0, 0.0, W, H)
    assert attach_labels(lines, [table]) == lines


def test_two_columns_of_prose_are_not_labels() -> None:
    """The short last line of a left column sits far from the right column's text."""
    left = [line("左欄的文字一直寫到這一行的結尾為止，", 60, 0, 290), line("短句。", 60, 1, 110)]
    right = [line("右欄從這裡開始寫，內容和左欄無關，", 320, r, 540) for r in range(2)]
    assert attach_labels(left + right) == left + right
