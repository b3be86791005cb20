"""`pagereader mcp` driven by the mcp SDK's own clients: over stdio (the server spawned as a
subprocess) and over streamable HTTP (a real server on loopback, with a token and without).
The Markdown a parse returns is checked against the PDF's own text layer read here with
pypdfium2, page by page; paths that leave the roots are refused with a clear error."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
import time
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pypdfium2
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from pagereader.text.chars import char_consistency

from service_process import free_port, server_env
from shared_data import shared

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TOOLS = {"parse", "read_page", "get_article", "list_chunks", "search_chunks"}
ADMIN = "admin-token-0123456789abcdef"
READER = "reader-token-0123456789abcdef"
JSON_TYPE = {"Content-Type": "application/json"}


def text_layer_words(pdf: Path) -> dict[int, list[str]]:
    """Each page's words as the PDF's text layer holds them (pages from 1)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        return {
            index + 1: unicodedata.normalize("NFKC", page.get_textpage().get_text_range()).split()
            for index, page in enumerate(document)
        }
    finally:
        document.close()


def structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    content: dict[str, Any] = result.structured_content
    return content


def error_text(result: Any) -> str:
    assert result.is_error, result.structured_content
    return str(result.content[0].text)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(EXAMPLES / "deck.pdf", folder / "deck.pdf")
    (tmp_path / "secret.pdf").write_bytes((EXAMPLES / "deck.pdf").read_bytes())
    (folder / "link.pdf").symlink_to(tmp_path / "secret.pdf")
    return folder


@asynccontextmanager
async def stdio_session(root: Path, out: Path, *extra: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "pagereader", "mcp", "--root", str(root), "--out", str(out), *extra],
        env=server_env(),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


async def test_stdio_tools_parse_and_pages_match_the_text_layer(root: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    truth = text_layer_words(root / "deck.pdf")
    async with stdio_session(root, out) as session:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == TOOLS

        parsed = structured(await session.call_tool("parse", {"path": "deck.pdf"}))
        assert parsed["status"] == "ok" and parsed["pages"] == len(truth)
        markdown = unicodedata.normalize("NFKC", parsed["markdown"]["markdown"])
        missing = [w for words in truth.values() for w in words if w not in markdown]
        assert not missing, missing
        folder = Path(parsed["output_folder"])
        assert folder.parent == out.resolve() and (folder / "document.json").is_file()
        assert parsed["errors"] == [] and parsed["markdown"]["truncated"] is False

        for number, words in truth.items():
            page = structured(
                await session.call_tool(
                    "read_page", {"document": parsed["document"], "page": number}
                )
            )
            text = unicodedata.normalize("NFKC", page["markdown"]["markdown"])
            assert all(word in text for word in words), (number, text)
            others = [w for n, ws in truth.items() if n != number for w in ws if len(w) > 6]
            assert not any(w in text for w in others if w not in " ".join(words)), number

        missing_page = error_text(
            await session.call_tool("read_page", {"document": parsed["document"], "page": 99})
        )
        assert "page 99 was not read" in missing_page

        document = parsed["document"]
        listed_chunks = structured(
            await session.call_tool("list_chunks", {"document": document, "limit": 2})
        )
        assert len(listed_chunks["chunks"]) == min(2, listed_chunks["total"])
        every = structured(await session.call_tool("list_chunks", {"document": document}))
        negative = {"document": document, "offset": 1, "limit": -3}
        one = structured(await session.call_tool("list_chunks", negative))
        assert one["chunks"] == every["chunks"][1:2] and one["offset"] == 1
        assert every["total"] >= len(truth) and len(every["chunks"]) == every["total"]
        for phrase in ("Median latency per slide", "年度文件數位化成果", "문서 처리 현황 보고"):
            on = [n for n, words in truth.items() if phrase.split()[0] in words]
            found = structured(
                await session.call_tool("search_chunks", {"document": document, "query": phrase})
            )
            assert found["total"] >= 1 and found["chunks"][0]["pages"] == on, (phrase, found)
            assert phrase in found["chunks"][0]["text"]

        data = base64.b64encode((root / "deck.pdf").read_bytes()).decode()
        upload = structured(
            await session.call_tool("parse", {"filename": "deck.pdf", "content_base64": data})
        )
        assert upload["document"] == parsed["document"]  # the same bytes, the same folder
        assert upload["markdown"]["markdown"] == parsed["markdown"]["markdown"]


async def test_stdio_paths_outside_the_roots_are_refused(root: Path, tmp_path: Path) -> None:
    async with stdio_session(root, tmp_path / "out") as session:
        for path, reason in (
            ("../secret.pdf", "'..' is not allowed"),
            ("/etc/passwd", "outside the allowed roots"),
            (str(tmp_path / "secret.pdf"), "outside the allowed roots"),
            ("link.pdf", "leads outside the allowed roots"),
            ("absent.pdf", "no such file in the allowed roots"),
        ):
            message = error_text(await session.call_tool("parse", {"path": path}))
            assert path in message and reason in message, message
        assert not (tmp_path / "out").exists() or not any((tmp_path / "out").glob("*/*.md"))
        bad = error_text(
            await session.call_tool("parse", {"filename": "../x.pdf", "content_base64": "AAAA"})
        )
        assert "plain file name" in bad
        garbled = error_text(
            await session.call_tool("parse", {"filename": "x.pdf", "content_base64": "no*base64"})
        )
        assert garbled.startswith("Error executing tool parse: x.pdf: the upload is not valid")
        neither = error_text(await session.call_tool("parse", {}))
        assert "give either path, or filename and content_base64" in neither
        unknown = error_text(
            await session.call_tool("read_page", {"document": "../out", "page": 1})
        )
        assert "no parsed document has this id" in unknown


async def test_stdio_limits_cut_markdown_and_refuse_large_files(root: Path, tmp_path: Path) -> None:
    async with stdio_session(root, tmp_path / "out", "--max-chars", "200") as session:
        parsed = structured(await session.call_tool("parse", {"path": "deck.pdf"}))
        body = parsed["markdown"]
        assert body["truncated"] is True and body["total_chars"] > 200
        assert len(body["markdown"]) < 300 and "[truncated:" in body["markdown"]
    async with stdio_session(root, tmp_path / "out", "--max-upload-mb", "0.001") as session:
        size = (root / "deck.pdf").stat().st_size
        message = error_text(await session.call_tool("parse", {"path": "deck.pdf"}))
        assert "over the limit" in message and f"{size / 1024 / 1024:.1f} MiB" in message
    pages = len(text_layer_words(root / "deck.pdf"))
    async with stdio_session(root, tmp_path / "out", "--max-pages", str(pages - 1)) as session:
        parsed = structured(await session.call_tool("parse", {"path": "deck.pdf"}))
        assert parsed["status"] == "failed" and parsed["pages"] == 0
        assert f"{pages} pages, over the limit of {pages - 1} pages" in parsed["errors"][0]


def _start_http(root: Path, tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    tokens = tmp_path / "tokens.txt"
    tokens.write_text(f"root:admin:{ADMIN}\nviewer:reader:{READER}\n", encoding="utf-8")
    log = (tmp_path / "mcp-http.log").open("wb")
    args = ["--root", str(root), "--out", str(tmp_path / "out"), "--transport", "http"]
    args += ["--port", str(port), "--token-file", str(tokens), *extra]
    return subprocess.Popen(
        [sys.executable, "-m", "pagereader", "mcp", *args],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=server_env(),
    )


def _wait_listening(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(encoding="utf-8", errors="replace")
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer: {log.read_text(encoding='utf-8')}")


async def test_http_needs_a_token_with_the_reviewer_role(root: Path, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    process = _start_http(root, tmp_path, port)
    try:
        _wait_listening(url, process, tmp_path / "mcp-http.log")
        hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {"Accept": "application/json, text/event-stream"}
        refused = httpx.post(url, json=hello, headers=headers, timeout=10)
        assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        assert "a valid token is required" in refused.json()["error"]
        wrong = httpx.post(url, json=hello, headers={**headers, "Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        reader = httpx.post(
            url, json=hello, headers={**headers, "Authorization": f"Bearer {READER}"}
        )
        assert reader.status_code == 403 and "reviewer" in json.loads(reader.text)["error"]

        with pytest.raises(ExceptionGroup) as caught:  # the SDK client, no token: no session
            async with (
                httpx2.AsyncClient(timeout=10) as bare,
                streamable_http_client(url, http_client=bare) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
        assert caught.group_contains(MCPError, match="error response", depth=None)

        auth = {"Authorization": f"Bearer {ADMIN}"}
        async with (
            httpx2.AsyncClient(headers=auth, timeout=120) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.list_tools()
            assert {tool.name for tool in listed.tools} == TOOLS
            parsed = structured(await session.call_tool("parse", {"path": "deck.pdf"}))
            words = text_layer_words(root / "deck.pdf")[1]
            assert all(word in parsed["markdown"]["markdown"] for word in words)
            escaped = error_text(await session.call_tool("parse", {"path": "../secret.pdf"}))
            assert "'..' is not allowed" in escaped
    finally:
        process.terminate()
        process.wait(30)


async def test_http_bodies_are_bounded_before_the_sdk_parses_them(
    root: Path, tmp_path: Path
) -> None:
    """A 5000-digit number, deep nesting and a body past the largest upload are refused in the
    service's error shape; an upload of the largest size still fits, and the server answers
    after each refusal."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    deck = (root / "deck.pdf").read_bytes()
    process = _start_http(
        root, tmp_path, port, "--max-upload-mb", f"{len(deck) / 2**20 + 1e-4:.4f}"
    )
    auth = {"Authorization": f"Bearer {ADMIN}"}
    headers = {**auth, "Accept": "application/json, text/event-stream", **JSON_TYPE}
    call = {"jsonrpc": "2.0", "id": 7, "method": "tools/list"}
    too_long = json.dumps(call).replace('"id": 7', '"id": 1' + "0" * 4999)
    upload = {"filename": "big.pdf", "content_base64": "A" * (3 * len(deck))}
    params = {"name": "parse", "arguments": upload}
    too_big = json.dumps({**call, "method": "tools/call", "params": params})
    refusals = {
        too_long: (400, "a number of more than 100 digits"),
        "[" * 100_000: (400, "nests deeper than 64 levels"),
        too_big: (413, "larger than this server's limit"),
    }
    try:
        _wait_listening(url, process, tmp_path / "mcp-http.log")
        async with (
            httpx2.AsyncClient(headers=auth, timeout=120) as client,
            streamable_http_client(url, http_client=client) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            data = base64.b64encode(deck).decode()
            arguments = {"filename": "deck.pdf", "content_base64": data}
            assert structured(await session.call_tool("parse", arguments))["status"] == "ok"
            for body, (status, message) in refusals.items():
                answer = httpx.post(url, content=body, headers=headers, timeout=60)
                assert answer.status_code == status, answer.text
                assert message in answer.json()["error"], answer.text
                listed = await session.list_tools()
                assert {tool.name for tool in listed.tools} == TOOLS
    finally:
        process.terminate()
        process.wait(30)


_REFERENCE_LABEL = re.compile(r"^(?:第 \S+ 條|제\d+조(?:의\d+)?)(?:\s|$)")
"""A line of a reference transcript that opens an article (its own pattern, not pagereader's)."""


def reference_article(reference: Path, label: str) -> str:
    """An article's text as the reference transcript prints it: the rest of its label's line
    and the lines up to the next article's label."""
    lines = reference.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line == label or line.startswith(label + " "))
    body = [lines[start][len(label) :]]
    for line in lines[start + 1 :]:
        if _REFERENCE_LABEL.match(line):
            break
        body.append(line)
    return "".join(part.strip() for part in body)


async def test_stdio_get_article_of_a_real_statute(tmp_path: Path) -> None:
    legal = shared("eval", "real_legal")
    expected = reference_article(legal / "N0030001.p1.ref.txt", "第 30-1 條")
    truth = text_layer_words(legal / "N0030001.pdf")
    async with stdio_session(legal, tmp_path / "out") as session:
        parsed = structured(await session.call_tool("parse", {"path": "N0030001.pdf"}))
        document = parsed["document"]
        for asked in (
            "30-1",
            "第三十條之一",
            "第 30-1 條",
            "Article 30-1",
            "Art. 30-1",
            "art-30-1",
        ):
            article = structured(
                await session.call_tool("get_article", {"document": document, "number": asked})
            )
            assert article["number"] == "30-1" and article["id"] == "art-30-1"
            assert char_consistency(article["text"], expected) >= 0.98, article["text"]
            on_page = [n for n, words in truth.items() if "30-1" in " ".join(words)]
            assert article["pages"] == on_page[:1] == [1]
        tunnel = structured(
            await session.call_tool(
                "search_chunks", {"document": document, "query": "在坑道或隧道內工作"}
            )
        )
        first = tunnel["chunks"][0]
        assert first["article_id"] == "art-31" and "坑道" in first["text"]
        assert first["pages"] == [
            n for n, words in truth.items() if "坑道或隧道內工作之勞工" in "".join(words)
        ]
        absent = error_text(
            await session.call_tool("get_article", {"document": document, "number": "999"})
        )
        assert "no article 999" in absent and "art-35" in absent
        for asked, wanted in (("Art 32-1", "art-32-1"), ("article 30", "art-30")):
            article = structured(
                await session.call_tool("get_article", {"document": document, "number": asked})
            )
            assert article["id"] == wanted, asked
        unheld = error_text(
            await session.call_tool("get_article", {"document": document, "number": "Art 31-1"})
        )
        assert "no article 31-1" in unheld and "art-31, art-32" in unheld


async def test_stdio_get_article_of_a_korean_statute(tmp_path: Path) -> None:
    legal = shared("eval", "real_legal")
    expected = reference_article(legal / "constitution_1987.p1.ref.txt", "제10조")
    async with stdio_session(legal, tmp_path / "out") as session:
        parsed = structured(await session.call_tool("parse", {"path": "constitution_1987.pdf"}))
        for asked in ("제10조", "10"):
            article = structured(
                await session.call_tool(
                    "get_article", {"document": parsed["document"], "number": asked}
                )
            )
            assert article["number"] == "10" and article["pages"] == [1]
            assert char_consistency(article["text"], expected) >= 0.98, article["text"]
