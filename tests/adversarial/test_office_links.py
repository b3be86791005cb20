"""Office files that link to something outside themselves never make pagereader fetch it.

The targets are a picture of a word on a yellow ground, as a local file (``file://``) and on a
real HTTP server on loopback that records every request. Three layers stand between the file
and its targets, and each is tested alone, with the other two off: the sanitized copy
LibreOffice is given (sources/office_links.py), LibreOffice's isolation (bwrap, unshare), and
its profile (links never loaded). The first test shows the attack works with all three off, so
that the others can fail. Then the whole path: ``parse``, ``serve`` and the LangChain loader.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from threading import Thread

import httpx
import pypdfium2
import pytest
from PIL import Image

from pagereader.config.options import Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.service.app import create_app
from pagereader.sources import office, office_sandbox
from pagereader.sources.office_links import is_outside, sanitize_package

from fixtures.linked_office import (
    SECRET_WORD,
    docx_linked_picture,
    docx_loading_fields,
    ground_pixels,
    odt_linked_picture,
    pptx_linked_picture,
    word_png,
)
from service_process import wait_finished

pytestmark = pytest.mark.skipif(office.find_soffice() is None, reason="needs LibreOffice")

Make = Callable[[Path, str], Path]
MAKERS: dict[str, tuple[Make, str]] = {
    "docx": (docx_linked_picture, ".docx"),
    "pptx": (pptx_linked_picture, ".pptx"),
    "odt": (odt_linked_picture, ".odt"),
}


class Recorder:
    """A real HTTP server on loopback that serves the secret picture and records every
    request line, whatever its method."""

    def __init__(self, picture: bytes) -> None:
        self.requests: list[str] = []
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(picture)))
                self.end_headers()
                self.wfile.write(picture)

            def log_message(self, format: str, *args: object) -> None:
                recorder.requests.append(self.requestline)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/secret.png"

    def __enter__(self) -> Recorder:
        Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    with Recorder(word_png(SECRET_WORD)) as server:
        yield server


@pytest.fixture
def secret_uri(tmp_path: Path) -> str:
    secret = tmp_path / "secrets" / "secret.png"
    secret.parent.mkdir()
    secret.write_bytes(word_png(SECRET_WORD))
    return secret.as_uri()


def _bare_profile(profile: Path) -> None:
    (profile / "user").mkdir(parents=True, exist_ok=True)


def _first_page(pdf: Path) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf)
    try:
        image: Image.Image = document[0].render(scale=1).to_pil()
        return image
    finally:
        document.close()


def _convert_raw(source: Path, tmp_path: Path) -> Path:
    """LibreOffice on the file itself, in a folder of its own: no sanitized copy."""
    inbox = tmp_path / "inbox"
    inbox.mkdir(parents=True)
    copy = inbox / source.name
    shutil.copyfile(source, copy)
    return office.run_libreoffice(copy, "pdf", name=source)


def _targets(recorder: Recorder, secret_uri: str) -> dict[str, str]:
    return {"file": secret_uri, "http": recorder.url}


def _layers(monkeypatch: pytest.MonkeyPatch, isolation: str, profile: bool) -> None:
    """LibreOffice's isolation as given, and its profile's settings on or off."""
    monkeypatch.setenv("PAGEREADER_OFFICE_ISOLATION", isolation)
    if not profile:
        monkeypatch.setattr(office, "prepare_profile", _bare_profile)


def _unsanitized(kind: str, tmp_path: Path, recorder: Recorder, secret_uri: str) -> int:
    """The file:// and the http:// version of a linked file converted as they are (no cleaned
    copy): the yellow pixels of the first one's page (the server records the second)."""
    make, suffix = MAKERS[kind]
    read = _convert_raw(make(tmp_path / f"file{suffix}", secret_uri), tmp_path / "a")
    _convert_raw(make(tmp_path / f"http{suffix}", recorder.url), tmp_path / "b")
    return ground_pixels(_first_page(read))


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_the_attack_is_real_with_every_layer_off(
    kind: str,
    tmp_path: Path,
    recorder: Recorder,
    secret_uri: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _layers(monkeypatch, "none", profile=False)
    assert _unsanitized(kind, tmp_path, recorder, secret_uri) > 1000
    assert any("GET /secret.png" in line for line in recorder.requests)


@pytest.mark.parametrize("target", ["file", "http"])
@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_the_sanitized_copy_alone_stops_it(
    kind: str,
    target: str,
    tmp_path: Path,
    recorder: Recorder,
    secret_uri: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make, suffix = MAKERS[kind]
    _layers(monkeypatch, "none", profile=False)
    link = _targets(recorder, secret_uri)[target]
    converted = office.convert_to_pdf(make(tmp_path / f"linked{suffix}", link), tmp_path / "work")
    assert ground_pixels(_first_page(converted.pdf)) == 0
    assert recorder.requests == []
    assert len(converted.warnings) == 1
    assert link in converted.warnings[0] and "not loaded" in converted.warnings[0]


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_bwrap_alone_stops_it(
    kind: str,
    tmp_path: Path,
    recorder: Recorder,
    secret_uri: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert office_sandbox.works("bwrap", office.find_soffice() or "soffice"), (
        "bubblewrap is part of the system packages (Makefile SYSTEM_PACKAGES)"
    )
    _layers(monkeypatch, "bwrap", profile=False)
    assert _unsanitized(kind, tmp_path, recorder, secret_uri) == 0
    assert recorder.requests == []


def test_unshare_alone_keeps_it_off_the_network(
    tmp_path: Path, recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    _layers(monkeypatch, "unshare", profile=False)
    for kind, (make, suffix) in MAKERS.items():
        _convert_raw(make(tmp_path / f"http{suffix}", recorder.url), tmp_path / kind)
    assert recorder.requests == []


@pytest.mark.parametrize("kind", sorted(MAKERS))
def test_the_profile_alone_stops_it(
    kind: str,
    tmp_path: Path,
    recorder: Recorder,
    secret_uri: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _layers(monkeypatch, "none", profile=True)
    assert _unsanitized(kind, tmp_path, recorder, secret_uri) == 0
    assert recorder.requests == []


def _inputs(folder: Path, recorder: Recorder, secret_uri: str) -> list[Path]:
    folder.mkdir()
    return [
        docx_linked_picture(folder / "docx-file.docx", secret_uri),
        docx_linked_picture(folder / "docx-http.docx", recorder.url),
        pptx_linked_picture(folder / "pptx-file.pptx", secret_uri),
        pptx_linked_picture(folder / "pptx-http.pptx", recorder.url),
        docx_loading_fields(folder / "fields.docx", secret_uri, recorder.url),
    ]


def _assert_unread(folder: Path, link: str) -> None:
    """A document folder that holds nothing of the target and a warning naming it."""
    for name in ("document.md", "chunks.jsonl", "document.json", "review.md"):
        assert SECRET_WORD not in (folder / name).read_text(encoding="utf-8"), name
    for overlay in (folder / "pages").glob("*.png"):
        assert ground_pixels(Image.open(overlay)) == 0, overlay
    document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
    assert any(link in warning for warning in document["warnings"]), document["warnings"]
    assert link in (folder / "review.md").read_text(encoding="utf-8")


def test_parse_fetches_nothing_and_says_what_it_left_out(
    tmp_path: Path, recorder: Recorder, secret_uri: str
) -> None:
    inputs = _inputs(tmp_path / "in", recorder, secret_uri)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "pagereader", "parse", *map(str, inputs), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert recorder.requests == []
    for source in inputs:
        link = recorder.url if source.stem.endswith("http") else secret_uri
        _assert_unread(out / source.stem, link)
    assert "Public paragraph after the picture." in (out / "docx-file" / "document.md").read_text()
    assert "Public slide title" in (out / "pptx-http" / "document.md").read_text()


def test_serve_fetches_nothing_for_an_upload(
    tmp_path: Path, recorder: Recorder, secret_uri: str
) -> None:
    inputs = _inputs(tmp_path / "in", recorder, secret_uri)[1:3]
    with serve_in_thread(create_app(tmp_path / "data", Options(), workers=1)) as url:
        client = httpx.Client(base_url=url.removesuffix("/v1"), timeout=60)
        ids = {}
        for source in inputs:
            files = {"file": (source.name, source.read_bytes(), "application/octet-stream")}
            ids[source] = client.post("/v1/documents", files=files).json()["id"]
        for source, job_id in ids.items():
            assert wait_finished(client, job_id)["status"] == "ok"
            document = client.get(f"/v1/jobs/{job_id}/document.json").json()
            link = recorder.url if source.stem.endswith("http") else secret_uri
            assert any(link in warning for warning in document["warnings"])
            assert SECRET_WORD not in client.get(f"/v1/jobs/{job_id}/document.md").text
            overlay = client.get(f"/v1/jobs/{job_id}/pages/1.png")
            assert overlay.status_code == 200
            assert ground_pixels(Image.open(io.BytesIO(overlay.content))) == 0
    assert recorder.requests == []


def test_the_langchain_loader_fetches_nothing(
    tmp_path: Path, recorder: Recorder, secret_uri: str
) -> None:
    from pagereader.integrations.langchain import PagereaderLoader

    inputs = _inputs(tmp_path / "in", recorder, secret_uri)[:2]
    documents = PagereaderLoader(inputs).load()
    assert documents and all(SECRET_WORD not in d.page_content for d in documents)
    assert any("Public paragraph" in d.page_content for d in documents)
    assert recorder.requests == []


def test_outside_references_are_told_from_parts_of_the_package() -> None:
    outside = [
        "file:///etc/passwd",
        "http://127.0.0.1/x",
        "/etc/passwd",
        "\\\\host\\share\\a",
        "C:/secret.png",
        "../secret.png",
        "Pictures/../../x.png",
        "vnd.sun.star.script:x",
    ]
    inside = ["Pictures/a.png", "./Object 1", "Object 1", "#Slide 2", "media/../media/a.png"]
    assert [t for t in outside if not is_outside(t)] == []
    assert [t for t in inside if is_outside(t)] == []


def test_hyperlinks_stay_and_every_other_outside_relationship_goes(tmp_path: Path) -> None:
    deck = pptx_linked_picture(tmp_path / "deck.pptx", "https://example.org/a.png")
    with zipfile.ZipFile(deck, "a") as package:
        package.writestr(
            "ppt/slides/_rels/slide2.xml.rels",
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http:'
            '//schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" '
            'Target="https://example.org/read-me" TargetMode="External"/><Relationship Id="rId2"'
            ' Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'oleObject" Target="file:///srv/book.xlsx" TargetMode="External"/></Relationships>',
        )
    clean = tmp_path / "clean.pptx"
    warnings = sanitize_package(deck, clean)
    with zipfile.ZipFile(clean) as package:
        second = package.read("ppt/slides/_rels/slide2.xml.rels").decode()
        first = package.read("ppt/slides/_rels/slide1.xml.rels").decode()
        assert "media/pagereader-unlinked.png" in package.namelist()
        types = package.read("[Content_Types].xml").decode()
    assert "https://example.org/read-me" in second and "book.xlsx" not in second
    assert "example.org/a.png" not in first and "/media/pagereader-unlinked.png" in first
    assert 'Extension="png"' in types
    assert sorted(w.split(":")[0] for w in warnings) == [
        "ppt/slides/_rels/slide1.xml.rels",
        "ppt/slides/_rels/slide2.xml.rels",
    ]


def test_a_binary_document_is_cleaned_after_its_first_conversion(
    tmp_path: Path, secret_uri: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A .doc holds no XML to clean: LibreOffice converts it to DOCX first, then the copy is
    cleaned as any DOCX (here with the profile and the isolation off)."""
    monkeypatch.setenv("PAGEREADER_OFFICE_ISOLATION", "bwrap")
    linked = docx_linked_picture(tmp_path / "linked.docx", secret_uri)
    binary = office.run_libreoffice(
        shutil.copyfile(linked, _folder(tmp_path / "make") / linked.name), "doc", name=linked
    )
    _layers(monkeypatch, "none", profile=False)
    assert ground_pixels(_first_page(_convert_raw(binary, tmp_path / "raw"))) > 1000
    converted = office.convert_to_pdf(binary, tmp_path / "work")
    assert ground_pixels(_first_page(converted.pdf)) == 0
    assert [secret_uri in warning for warning in converted.warnings] == [True]


def _folder(path: Path) -> Path:
    path.mkdir(parents=True)
    return path
