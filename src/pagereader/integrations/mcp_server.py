"""``pagereader mcp``: parsed documents as tools of the Model Context Protocol (the official
``mcp`` SDK), over stdio for a local client or streamable HTTP behind the service's tokens.

Tools: ``parse`` (a file under an allowed root, or an upload as base64), ``read_page``,
``get_article`` (from a statute's structure), ``list_chunks`` and ``search_chunks``. Every
answer is bounded (Markdown cut with a note, a page of results at most) so that one call cannot
flood a model's context; a refused path or a bad page is a tool error with one clear line.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from starlette.types import ASGIApp, Receive, Scope, Send

from pagereader.errors import PagereaderError
from pagereader.http.auth import Role, TokenStore, holds
from pagereader.http.errors import ServiceError, error_response
from pagereader.http.json_body import JsonBodyGuard
from pagereader.integrations.answers import (
    ArticleAnswer,
    PageAnswer,
    ParseAnswer,
    article_answer,
    page_answer,
    parse_answer,
)
from pagereader.integrations.chunk_search import ChunkList, list_chunks, search_chunks
from pagereader.integrations.workspace import Limits, Workspace
from pagereader.render.files import DOCUMENT_MD

logger = logging.getLogger(__name__)

ENVELOPE_BYTES = 64 * 1024
"""Room in an HTTP body for the JSON-RPC envelope around an upload's base64."""

HTTP_ROLE: Role = "reviewer"
"""The role an HTTP caller's token must hold: ``parse`` uploads and parses, as the service's
uploads need a reviewer."""

INSTRUCTIONS = (
    "pagereader reads PDFs, slide decks and scans into Markdown. Call parse with a path under "
    "the server's document roots (or an upload as base64 with its file name); it returns a "
    "document id for read_page, get_article, list_chunks and search_chunks. Blocks listed "
    "under 'review' were flagged by the verifier: check them against the page before relying "
    "on them."
)

T = TypeVar("T")


async def _answer(work: Callable[[], Awaitable[T]]) -> T:
    """Run a tool's work; pagereader's errors become tool errors with their one line."""
    try:
        return await work()
    except PagereaderError as exc:
        raise ToolError(str(exc)) from None


def build_server(workspace: Workspace) -> MCPServer[Any]:
    """The MCP server with pagereader's tools over ``workspace``."""
    server: MCPServer[Any] = MCPServer(name="pagereader", instructions=INSTRUCTIONS)
    limits = workspace.limits

    def count(limit: int | None) -> int:
        """Chunks one answer holds: ``limit``, within 1 and the server's bound."""
        return max(1, min(limit or limits.max_results, limits.max_results))

    @server.tool()
    async def parse(
        path: str | None = None, filename: str | None = None, content_base64: str | None = None
    ) -> ParseAnswer:
        """Parse a document (PDF, PPTX, DOCX, image) into Markdown and JSON. Give ``path``, a
        file under the server's document roots (relative to a root or absolute inside one),
        or ``filename`` and ``content_base64`` for an upload. Returns the document id for the
        other tools, status, Markdown (cut with a note past the server's limit), the blocks
        flagged for review (page, block, reasons), errors and the output folder."""

        async def work() -> ParseAnswer:
            if path is not None and (filename is None and content_base64 is None):
                document_id, result = await workspace.parse_path(path)
            elif path is None and filename is not None and content_base64 is not None:
                document_id, result = await workspace.parse_upload(filename, content_base64)
            else:
                raise ToolError("give either path, or filename and content_base64")
            folder = workspace.out / document_id
            markdown = result.markdown or await asyncio.to_thread(_read_markdown, folder)
            return parse_answer(document_id, result, markdown, folder, limits.max_markdown_chars)

        return await _answer(work)

    @server.tool()
    async def read_page(document: str, page: int) -> PageAnswer:
        """One page's Markdown of a parsed document (pages are numbered from 1)."""

        async def work() -> PageAnswer:
            result = await asyncio.to_thread(workspace.load, document)
            return page_answer(document, result, page, limits.max_markdown_chars)

        return await _answer(work)

    @server.tool()
    async def get_article(document: str, number: str) -> ArticleAnswer:
        """An article of a parsed statute or contract by its number as printed, plain or as
        its id: ``30-1``, ``Article 30-1``, ``Art. 30-1``, ``第30-1條``, ``第三十條之一``,
        ``제4조의2``, ``art-30-1``. Returns exactly that article (label, title, text, pages),
        or an error naming the closest articles the document holds."""

        async def work() -> ArticleAnswer:
            result = await asyncio.to_thread(workspace.load, document)
            return article_answer(document, result, number)

        return await _answer(work)

    @server.tool(name="list_chunks")
    async def list_chunks_tool(
        document: str, offset: int = 0, limit: int | None = None
    ) -> ChunkList:
        """The chunks of a parsed document in reading order (text, pages, heading path,
        article id), ``limit`` at a time from ``offset``."""

        async def work() -> ChunkList:
            folder = workspace.folder(document)
            return await asyncio.to_thread(list_chunks, document, folder, offset, count(limit))

        return await _answer(work)

    @server.tool(name="search_chunks")
    async def search_chunks_tool(document: str, query: str, limit: int | None = None) -> ChunkList:
        """The chunks of a parsed document that hold a phrase (compared after Unicode
        normalization and case folding; spaces between words are flexible), best first."""

        async def work() -> ChunkList:
            folder = workspace.folder(document)
            return await asyncio.to_thread(search_chunks, document, folder, query, count(limit))

        return await _answer(work)

    return server


def _read_markdown(folder: Path) -> str:
    path = folder / DOCUMENT_MD.name
    return path.read_text(encoding="utf-8") if path.is_file() else ""


class TokenGuard:
    """ASGI middleware: every HTTP request carries ``Authorization: Bearer TOKEN`` of a
    known token (the service's token store) whose role is ``role`` or higher; else 401/403 in
    the service's error shape. Without tokens everyone passes (loopback only)."""

    def __init__(self, app: ASGIApp, tokens: TokenStore, role: Role = HTTP_ROLE) -> None:
        self.app = app
        self.tokens = tokens
        self.role = role

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.tokens:
            headers = dict(scope.get("headers") or [])
            authorization = headers.get(b"authorization", b"").decode("latin-1") or None
            try:
                holds(self.tokens.authenticate(authorization), self.role)
            except ServiceError as exc:
                await error_response(exc)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def max_body_bytes(limits: Limits) -> int:
    """The largest HTTP body a call needs: the largest upload as base64, with its envelope."""
    return 4 * -(-limits.max_file_bytes // 3) + ENVELOPE_BYTES


def http_app(server: MCPServer[Any], tokens: TokenStore, host: str, max_bytes: int) -> ASGIApp:
    """The streamable-HTTP app at ``/mcp`` behind the tokens, its bodies bounded before the
    SDK parses them (json_body.py); the SDK's DNS-rebinding guard stays on for loopback
    hosts."""
    return TokenGuard(JsonBodyGuard(server.streamable_http_app(host=host), max_bytes), tokens)


def run_stdio(workspace: Workspace) -> None:
    build_server(workspace).run("stdio")


def run_http(workspace: Workspace, tokens: TokenStore, host: str, port: int) -> None:
    app = http_app(build_server(workspace), tokens, host, max_body_bytes(workspace.limits))
    uvicorn.run(app, host=host, port=port, log_level="info")
