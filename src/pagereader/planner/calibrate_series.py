"""The shape of a calibration's series: how many requests, of which sizes, in which order.

Kept apart from calibrate.py (which sends them, with httpx) and calibrate_fit.py (numpy), so
that ``plan calibrate --help`` can state them without loading either.
"""

from __future__ import annotations

BATCH = 8
OUTPUT_TOKENS = (16, 128)
BATCH_ROUNDS = (OUTPUT_TOKENS[0], OUTPUT_TOKENS[1], OUTPUT_TOKENS[1], OUTPUT_TOKENS[0])
"""Output tokens of the timed rounds of ``BATCH`` requests, in the order sent."""
MIN_REQUESTS = 4 + BATCH * len(BATCH_ROUNDS)
"""Four requests at batch 1 (one per pixel budget and output length) and the rounds."""
WARM_ROUNDS = 8
"""The most warm-up rounds (one request of each timed shape each)."""
SETTLED = 0.10
"""A warm-up round in which no shape's request is more than this much faster than that shape's
fastest before ends the warm-up (the round as a whole is mostly decoding: it settles while the
large images' prefill still speeds up)."""
#: A page crop of 1.2 Mpx: 374 and 1,564 visual tokens at its two budgets (factor 28).
CROP = (1280, 960)


def pixel_budgets(crop: tuple[int, int]) -> tuple[int, int]:
    """max_pixels of the small and the large request: a quarter of the crop, and all of it."""
    pixels = crop[0] * crop[1]
    return pixels // 4, pixels
