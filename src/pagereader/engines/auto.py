"""``ocr``: the embedded OCR chosen from the page's script.

PP-OCR (rapidocr) reads Latin and Chinese well and has no Hangul at all, so Korean goes to
Tesseract's ``kor`` model; without Tesseract a Korean block is refused rather than misread.
"""

from __future__ import annotations

from pagereader.config.options import RapidOCREngineOptions, TesseractEngineOptions
from pagereader.engines.base import BlockRequest, EmbeddedEngine
from pagereader.engines.rapidocr import RapidOCREngine
from pagereader.engines.tesseract import TESSERACT_HINT, TesseractEngine, tesseract_available
from pagereader.errors import DependencyError
from pagereader.types import Recognition, Script


def embedded_engine_for(script: Script, have_tesseract: bool | None = None) -> tuple[str, str]:
    """The embedded engine for a script, and why."""
    have = tesseract_available() if have_tesseract is None else have_tesseract
    if script == "hangul":
        if have:
            return "tesseract", "Hangul: the bundled PP-OCR dictionary has no Hangul; Tesseract kor"
        return "none", "Hangul needs Tesseract (kor), which is not installed"
    if script == "han":
        return "rapidocr", "Han: PP-OCR reads Traditional Chinese at 0.99+ consistency"
    if script == "latin":
        return "rapidocr", "Latin: PP-OCR"
    return "rapidocr", f"{script} script: PP-OCR, the embedded default"


class AutoOCREngine(EmbeddedEngine):
    """Dispatches each block to rapidocr or tesseract by the page's script."""

    name = "ocr"

    def __init__(
        self,
        rapid: RapidOCREngineOptions | None = None,
        tesseract: TesseractEngineOptions | None = None,
    ) -> None:
        self._rapid = RapidOCREngine(rapid)
        self._tesseract = TesseractEngine(tesseract)

    async def recognize(self, request: BlockRequest) -> Recognition:
        chosen, _ = embedded_engine_for(request.script)
        if chosen == "none":
            raise DependencyError(
                "this block is Korean and Tesseract (kor) is not installed",
                file=request.file,
                page=request.page,
                hint=TESSERACT_HINT,
            )
        engine = self._tesseract if chosen == "tesseract" else self._rapid
        return await engine.recognize(request)

    async def aclose(self) -> None:
        return None
