"""Label places: above a box when there is room, else below, else beside; never over a box,
never over another label, while the page has room for them."""

from __future__ import annotations

from pagereader.render.labels import _Covered, place_labels

PAGE = (400, 300)
SIZE = (40, 10)


def test_a_label_goes_above_its_box_when_there_is_room() -> None:
    assert place_labels([(100, 100, 200, 150)], [SIZE], PAGE) == [(100, 88, 139, 97)]


def test_a_box_at_the_top_of_the_page_gets_its_label_below() -> None:
    assert place_labels([(100, 0, 200, 50)], [SIZE], PAGE) == [(100, 53, 139, 62)]


def test_boxes_stacked_without_gaps_get_their_labels_beside() -> None:
    boxes = [(0, 0, 200, 149), (0, 150, 200, 299)]
    places = place_labels(boxes, [SIZE, SIZE], PAGE)
    assert places == [(203, 0, 242, 9), (203, 150, 242, 159)]


def test_two_boxes_on_one_line_do_not_share_a_label_place() -> None:
    boxes = [(100, 100, 120, 150), (125, 100, 200, 150)]
    first, second = place_labels(boxes, [SIZE, SIZE], PAGE)
    assert first == (100, 88, 139, 97)
    assert second[3] < 100 or second[1] > 150  # above or below, clear of both boxes
    assert second[0] > first[2] or second[1] > first[3] or second[3] < first[1]


def test_a_page_with_no_free_room_puts_the_label_where_it_covers_least() -> None:
    boxes = [(0, 0, 399, 299)]
    (place,) = place_labels(boxes, [SIZE], PAGE)
    assert place[2] - place[0] + 1 == SIZE[0] and place[3] - place[1] + 1 == SIZE[1]
    assert place[0] >= 0 and place[2] < PAGE[0] and place[1] >= 0 and place[3] < PAGE[1]


def test_covered_pixels_are_those_of_the_union_of_boxes() -> None:
    """Overlapping, clipped and out-of-page boxes: each rectangle's covered pixels counted
    one by one on a painted page."""
    boxes = [(10, 10, 120, 80), (60, 40, 200, 160), (-20, 250, 30, 330), (380, -5, 420, 20)]
    painted = [[False] * PAGE[0] for _ in range(PAGE[1])]
    for x0, y0, x1, y1 in boxes:
        for y in range(max(0, y0), min(PAGE[1] - 1, y1) + 1):
            for x in range(max(0, x0), min(PAGE[0] - 1, x1) + 1):
                painted[y][x] = True
    covered = _Covered(boxes, PAGE)
    for rect in [(0, 0, 399, 299), (50, 30, 150, 100), (0, 240, 40, 299), (370, 0, 399, 30)]:
        x0, y0, x1, y1 = rect
        expected = sum(painted[y][x] for y in range(y0, y1 + 1) for x in range(x0, x1 + 1))
        assert covered.pixels(rect) == expected
