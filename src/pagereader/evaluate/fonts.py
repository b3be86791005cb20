"""The TrueType fonts the synthetic documents are drawn with, and where they are looked up.

Apart from synth.py (which needs reportlab) so that ``pagereader doctor`` can say which are
installed on a base install."""

from __future__ import annotations

from pathlib import Path

from pagereader.errors import DependencyError

FONT_DIRS = (
    Path("/usr/share/fonts/truetype"),
    Path("/usr/share/fonts"),
    Path("/usr/local/share/fonts"),
    Path.home() / ".fonts",
)
# reportlab embeds TrueType outlines only, so CFF fonts such as Noto CJK cannot be used here.
FONTS: dict[str, tuple[str, str]] = {
    "PR-Latin": ("dejavu/DejaVuSans.ttf", "fonts-dejavu-core"),
    "PR-Latin-Bold": ("dejavu/DejaVuSans-Bold.ttf", "fonts-dejavu-core"),
    "PR-Han": ("arphic/uming.ttc", "fonts-arphic-uming"),
    "PR-Hangul": ("nanum/NanumGothic.ttf", "fonts-nanum"),
}
LANG_FONT: dict[str, str] = {"en": "PR-Latin", "zh-Hant": "PR-Han", "ko": "PR-Hangul"}


def find_font(relative: str, package: str) -> Path:
    """The installed font file, looked up in the usual font directories."""
    for folder in FONT_DIRS:
        for candidate in (folder / relative, folder / Path(relative).name):
            if candidate.is_file():
                return candidate
    raise DependencyError(
        f"font {Path(relative).name} not found in {', '.join(map(str, FONT_DIRS))}",
        hint=f"install it: apt-get install {package}",
    )
