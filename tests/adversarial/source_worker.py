"""A long-lived child for the fuzz test: reads one file path a line, opens it with pagereader's
sources and renders every page (at most four), and answers one JSON line: how it ended
(``ok``, ``error`` for a PagereaderError, ``crash`` with the traceback for anything else) and
its own peak RSS so far."""

from __future__ import annotations

import json
import resource
import sys
import traceback
from pathlib import Path

from pagereader.errors import PagereaderError
from pagereader.sources import open_source

BUDGET = 16_000_000
MAX_PAGES = 4


def attempt(path: Path) -> dict[str, object]:
    """Open and render ``path``; never raises."""
    try:
        source = open_source(path, password=None, max_image_pixels=BUDGET)
    except PagereaderError as exc:
        return {"outcome": "error", "kind": type(exc).__name__, "message": exc.message}
    except Exception:
        return {"outcome": "crash", "trace": traceback.format_exc()}
    errors: list[str] = []
    try:
        for index in range(1, min(source.page_count, MAX_PAGES) + 1):
            try:
                page = source.render(index, 150)
            except PagereaderError as exc:
                errors.append(type(exc).__name__)
                continue
            width, height = page.image.size
            if width * height > BUDGET:
                return {"outcome": "crash", "trace": f"page {index} is {width}x{height}"}
        source.close()
    except Exception:
        return {"outcome": "crash", "trace": traceback.format_exc()}
    return {"outcome": "ok", "page_errors": errors}


def main() -> None:
    for line in sys.stdin:
        answer = attempt(Path(line.strip()))
        answer["max_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
