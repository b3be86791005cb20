"""Fills that reach the raster's edge (within the slack the flatness test leaves) are dropped;
fills inside the page are kept whole, whatever their shape."""

from __future__ import annotations

import numpy as np

from pagereader.layout.table_rulings import _EDGE_SLACK, _inner


def _page() -> np.ndarray:
    return np.zeros((120, 200), dtype=np.uint8)


def test_fills_off_the_edge_are_kept_and_those_at_it_dropped() -> None:
    filled = _page()
    filled[40:60, 50:90] = 255  # a cell inside the page
    filled[10:30, _EDGE_SLACK : _EDGE_SLACK + 20] = 255  # within the slack of the left edge
    filled[70:90, _EDGE_SLACK + 1 : _EDGE_SLACK + 21] = 255  # just outside it
    filled[100:120, 150:170] = 255  # on the bottom edge
    kept = _page()
    kept[40:60, 50:90] = 255
    kept[70:90, _EDGE_SLACK + 1 : _EDGE_SLACK + 21] = 255
    assert np.array_equal(_inner(filled), kept)


def test_a_fill_joined_to_the_edge_by_a_diagonal_goes_whole() -> None:
    filled = _page()
    filled[50:70, 100:140] = 255
    for step in range(1, 60):  # a one-pixel diagonal from the fill's corner up to the top
        filled[50 - step, 100 - step] = 255
    assert not _inner(filled).any()


def test_no_fill_gives_the_mask_back() -> None:
    filled = _page()
    assert np.array_equal(_inner(filled), filled)
