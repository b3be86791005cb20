"""What one way of installing pagereader must do, run for real in the venv that runs this file.

    VENV/bin/python .ci/smoke.py base      # the base install: every --help, one line per missing extra
    VENV/bin/python .ci/smoke.py service   # with only the service extra: serve and serve-engine
    VENV/bin/python .ci/smoke.py batch     # with only the batch extra: two files on a local Ray
    VENV/bin/python .ci/smoke.py eval      # with only the eval extra: a two-page set scored
    VENV/bin/python .ci/smoke.py router    # with only the router extra: router-config written
    VENV/bin/python .ci/smoke.py docling   # with only the docling extra: a parse exported
    VENV/bin/python .ci/smoke.py mcp       # with only the mcp extra: the MCP server over stdio
    VENV/bin/python .ci/smoke.py langchain   # with only the langchain extra: the loader reads
    VENV/bin/python .ci/smoke.py llamaindex  # with only the llamaindex extra: the reader reads
    VENV/bin/python .ci/smoke.py demo OUT  # the outputs `make demo` wrote into OUT

Standard library only (and the base install's own packages), so that it proves what the venv
holds and nothing else. Each check prints one line; the first failure exits 1 with the reason.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BIN = Path(sys.executable).parent
PAGEREADER = str(BIN / "pagereader")
COMMANDS = [
    "parse",
    "diff",
    "batch",
    "serve",
    "serve-engine",
    "router-config",
    "plan",
    "plan calibrate",
    "eval",
    "make-evalset",
    "bench",
    "export-evalset",
    "export-docling",
    "mcp",
    "schema",
    "doctor",
]
EXTRAS = ("service", "batch", "eval", "router", "docling", "mcp")


class SmokeError(Exception):
    """A check that did not hold."""


def run(*args: str, timeout: float = 600, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PAGEREADER, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT, **kwargs
    )


def expect_ok(proc: subprocess.CompletedProcess[str], what: str) -> None:
    if proc.returncode != 0:
        raise SmokeError(f"{what}: exit {proc.returncode}\n{proc.stdout[-2000:]}{proc.stderr[-4000:]}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def http(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> bytes:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return bytes(answer.read())


def wait_for(url: str, process: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SmokeError(f"the server exited with {process.returncode} before answering {url}")
        try:
            http(url)
            return
        except OSError:
            time.sleep(0.5)
    raise SmokeError(f"{url} did not answer within {seconds:.0f} s")


def server(*args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as sink:
        return subprocess.Popen([PAGEREADER, *args], stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()


def check_missing(extra: str, args: list[str]) -> str:
    """A command whose extra is not installed says so in one line and exits non-zero."""
    proc = run(*args, timeout=120)
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    if proc.returncode == 0 or "Traceback" in proc.stderr or len(lines) != 1:
        raise SmokeError(
            f"`pagereader {' '.join(args)}` without the {extra} extra should print one line and "
            f"fail; exit {proc.returncode}, stderr:\n{proc.stderr[-3000:]}"
        )
    if f'".[{extra}]"' not in lines[0]:
        raise SmokeError(f"`pagereader {args[0]}` names no {extra!r} extra: {lines[0]}")
    return lines[0]


def missing_extra_commands(work: Path) -> dict[str, list[list[str]]]:
    """The commands of each extra, with arguments that get past option parsing."""
    return {
        "service": [
            ["serve", "--port", str(free_port()), "--data-dir", str(work / "data")],
            ["serve-engine", "--port", str(free_port())],
        ],
        "batch": [["batch", str(EXAMPLES / "deck.pdf"), "-o", str(work / "batch")]],
        "eval": [
            ["eval", str(EXAMPLES), "-o", str(work / "report")],
            ["make-evalset", str(work / "evalset")],
            ["bench", str(EXAMPLES), "-o", str(work / "bench")],
        ],
        "router": [
            ["router-config", "--config", str(EXAMPLES / "configs" / "a100x2.toml"), "-o",
             str(work / "router.yaml")],
        ],
        "docling": [["export-docling", str(work / "document.json"), "-o", str(work / "d.json")]],
        "mcp": [["mcp", "--root", str(EXAMPLES), "--out", str(work / "mcp")]],
    }


def installed(extra: str) -> bool:
    """Whether every distribution ``pagereader[extra]`` adds is installed (some arrive with
    another extra or the base install)."""
    import re
    from importlib import metadata

    for requirement in metadata.requires("pagereader") or []:
        marker = re.search(r"""extra\s*==\s*["']([^"']+)["']""", requirement)
        if marker is None or marker.group(1) != extra:
            continue
        name = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
        try:
            metadata.version(name.group(1) if name else requirement)
        except metadata.PackageNotFoundError:
            return False
    return True


def check_absent_extras(work: Path, present: set[str]) -> None:
    for extra, commands in missing_extra_commands(work).items():
        if extra in present:
            continue
        if installed(extra):
            # e.g. pyyaml, which rapidocr requires: the router extra adds nothing to the base
            print(f"ok   {extra}: its libraries arrive with this install; nothing is missing")
            continue
        for args in commands:
            line = check_missing(extra, args)
            print(f"ok   {args[0]} without the {extra} extra: {line}")


def smoke_base(work: Path) -> None:
    proc = run("--help")
    expect_ok(proc, "pagereader --help")
    for command in COMMANDS:
        proc = run(*command.split(), "--help")
        expect_ok(proc, f"pagereader {command} --help")
        if "Usage" not in proc.stdout:
            raise SmokeError(f"pagereader {command} --help printed no usage:\n{proc.stdout}")
    print(f"ok   pagereader --help and {len(COMMANDS)} subcommands' --help")
    proc = run("plan", "--gpus", "1xH100-80")
    expect_ok(proc, "pagereader plan --gpus 1xH100-80")
    print("ok   plan --gpus 1xH100-80")
    proc = run("doctor")
    expect_ok(proc, "pagereader doctor")
    if "miss  extra service: missing " not in proc.stdout:
        raise SmokeError(f"doctor does not say the service extra is missing:\n{proc.stdout}")
    print("ok   doctor on the base install: exit 0, the missing extras named")
    check_absent_extras(work, set())


def multipart(field: str, path: Path) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; "
        f"filename=\"{path.name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body = head + path.read_bytes() + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def smoke_serve(work: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = server("serve", "--port", str(port), "--data-dir", str(work / "data"),
                     log=work / "serve.log")
    try:
        wait_for(f"{url}/healthz", process)
        health = json.loads(http(f"{url}/healthz"))
        if health.get("status") != "ok":
            raise SmokeError(f"/healthz answered {health}")
        body, content_type = multipart("file", EXAMPLES / "deck.pdf")
        job = json.loads(http(f"{url}/v1/documents", body, {"Content-Type": content_type}))
        deadline = time.monotonic() + 300
        while True:
            state = json.loads(http(f"{url}/v1/jobs/{job['id']}"))
            if state["status"] not in ("queued", "running"):
                break
            if time.monotonic() > deadline:
                raise SmokeError(f"job {job['id']} still {state['status']} after 300 s")
            time.sleep(0.5)
        if state["status"] != "ok":
            raise SmokeError(f"the upload's job ended {state['status']}: {state}")
        markdown = http(f"{url}/v1/jobs/{job['id']}/document.md").decode()
        expected = (EXAMPLES / "deck.p1.txt").read_text(encoding="utf-8").split()[0]
        if expected not in markdown:
            raise SmokeError(f"document.md of the upload lacks {expected!r}:\n{markdown[:500]}")
        print(f"ok   serve: /healthz, one upload parsed ({len(markdown)} characters of Markdown)")
    finally:
        stop(process)


def smoke_serve_engine(work: Path) -> None:
    import openai

    port = free_port()
    process = server("serve-engine", "--port", str(port), log=work / "serve-engine.log")
    try:
        wait_for(f"http://127.0.0.1:{port}/v1/models", process)
        client = openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key="none")
        image = base64.b64encode((EXAMPLES / "scan.png").read_bytes()).decode()
        answer = client.chat.completions.create(
            model="pagereader/embedded",
            messages=[{"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{image}"}},
                {"type": "text", "text": "OCR:"},
            ]}],
            max_tokens=2048,
        )
        text = answer.choices[0].message.content or ""
        truth = (EXAMPLES / "scan.txt").read_text(encoding="utf-8").split()
        found = sum(1 for word in truth if word in text)
        if found < 0.5 * len(truth):
            raise SmokeError(f"serve-engine read {found} of {len(truth)} words of the scan:\n{text}")
        print(f"ok   serve-engine: one chat completion through openai ({found}/{len(truth)} words)")
    finally:
        stop(process)


def smoke_service(work: Path) -> None:
    smoke_serve(work)
    smoke_serve_engine(work)
    check_absent_extras(work, {"service"})


def smoke_batch(work: Path) -> None:
    out = work / "batch"
    proc = run("batch", str(EXAMPLES / "deck.pdf"), str(EXAMPLES / "scan.png"), "-o", str(out),
               "--workers", "2", timeout=900)
    expect_ok(proc, "pagereader batch")
    for name in ("deck", "scan"):
        document = json.loads((out / name / "document.json").read_text(encoding="utf-8"))
        if document["status"] != "ok" or not document["pages"]:
            raise SmokeError(f"batch wrote {name} with status {document['status']}")
    print("ok   batch: deck.pdf and scan.png parsed on a local Ray")
    check_absent_extras(work, {"batch"})


def smoke_eval(work: Path) -> None:
    dataset = work / "twopages"
    dataset.mkdir()
    (dataset / "deck.pdf").write_bytes((EXAMPLES / "deck.pdf").read_bytes())
    lines = []
    for page in (1, 2):
        reference = f"deck.p{page}.txt"
        (dataset / reference).write_text((EXAMPLES / reference).read_text(encoding="utf-8"))
        lines.append(json.dumps({"file": "deck.pdf", "page": page, "reference": reference}))
    (dataset / "manifest.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = work / "report"
    proc = run("eval", str(dataset), "--engines", "textlayer", "-o", str(report))
    expect_ok(proc, "pagereader eval")
    scores = json.loads((report / "report.json").read_text(encoding="utf-8"))
    text = json.dumps(scores)
    if "textlayer" not in text or not (report / "report.md").is_file():
        raise SmokeError(f"eval's report names no textlayer engine: {text[:500]}")
    print(f"ok   eval: a two-page set scored ({(report / 'report.md').stat().st_size} bytes)")
    check_absent_extras(work, {"eval"})


def smoke_router(work: Path) -> None:
    import yaml

    target = work / "router.yaml"
    proc = run("router-config", "--config", str(EXAMPLES / "configs" / "a100x2.toml"),
               "-o", str(target))
    expect_ok(proc, "pagereader router-config")
    config = yaml.safe_load(target.read_text(encoding="utf-8"))
    if not isinstance(config, dict) or not config:
        raise SmokeError(f"router-config wrote no mapping: {target.read_text()[:500]}")
    print(f"ok   router-config: {len(config)} top-level keys written")
    check_absent_extras(work, {"router"})


def smoke_docling(work: Path) -> None:
    out = work / "parsed"
    expect_ok(run("parse", str(EXAMPLES / "deck.pdf"), "-o", str(out)), "pagereader parse")
    target = work / "deck.docling.json"
    proc = run("export-docling", str(out / "deck" / "document.json"), "-o", str(target))
    expect_ok(proc, "pagereader export-docling")
    exported = json.loads(target.read_text(encoding="utf-8"))
    headers = [t for t in exported.get("texts", []) if t.get("label") == "section_header"]
    if len(exported.get("pages", {})) != 4 or not headers:
        raise SmokeError(f"export-docling wrote {len(exported.get('pages', {}))} pages and "
                         f"{len(headers)} headings for the 4-slide deck")
    print(f"ok   export-docling: 4 pages, {len(headers)} headings ({proc.stdout.strip()})")
    check_absent_extras(work, {"docling"})


def smoke_mcp(work: Path) -> None:
    """`pagereader mcp` over stdio, driven by the SDK's own client: its tools listed and
    examples/deck.pdf parsed."""
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    expected = (EXAMPLES / "deck.p1.txt").read_text(encoding="utf-8").split()[0]
    params = StdioServerParameters(
        command=PAGEREADER, args=["mcp", "--root", str(EXAMPLES), "--out", str(work / "mcp")]
    )

    async def session() -> tuple[list[str], dict[str, object]]:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = sorted(tool.name for tool in (await client.list_tools()).tools)
            answer = await client.call_tool("parse", {"path": "deck.pdf"})
            if answer.is_error:
                raise SmokeError(f"parse over MCP failed: {answer.content}")
            return tools, dict(answer.structured_content or {})

    tools, parsed = anyio.run(session)
    markdown = str(parsed.get("markdown", {}))
    if "parse" not in tools or parsed.get("status") != "ok" or expected not in markdown:
        raise SmokeError(f"mcp: tools {tools}, parse answered {str(parsed)[:500]}")
    print(f"ok   mcp: {len(tools)} tools over stdio, deck.pdf parsed ({parsed['pages']} pages)")
    smoke_mcp_http(work)
    check_absent_extras(work, {"mcp"})


def smoke_mcp_http(work: Path) -> None:
    """`pagereader mcp --transport http` with a token file: refused without the token (401),
    its tools listed through the SDK's client with it."""
    import urllib.error

    import anyio
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    token = uuid.uuid4().hex
    tokens = work / "mcp-tokens.txt"
    tokens.write_text(f"smoke:reviewer:{token}\n", encoding="utf-8")
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    process = server("mcp", "--root", str(EXAMPLES), "--out", str(work / "mcp-http"),
                     "--transport", "http", "--port", str(port), "--token-file", str(tokens),
                     log=work / "mcp-http.log")
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise SmokeError(f"mcp --transport http exited with {process.returncode}")
            try:
                http(url, b"{}", {"Content-Type": "application/json"})
                raise SmokeError("mcp over HTTP answered a request without a token")
            except urllib.error.HTTPError as refused:
                if refused.code != 401:
                    raise SmokeError(f"mcp over HTTP without a token: {refused.code}") from None
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SmokeError(f"{url} did not answer within 120 s") from None
                time.sleep(0.5)

        async def listed() -> list[str]:
            headers = {"Authorization": f"Bearer {token}"}
            async with (
                httpx2.AsyncClient(headers=headers, timeout=60) as client,
                streamable_http_client(url, http_client=client) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return sorted(tool.name for tool in (await session.list_tools()).tools)

        tools = anyio.run(listed)
        if "parse" not in tools:
            raise SmokeError(f"mcp over HTTP listed {tools}")
        print(f"ok   mcp over HTTP: 401 without the token, {len(tools)} tools with it")
    finally:
        stop(process)


def smoke_demo(out: Path) -> None:
    """Every example has its folder (found by the source its document.json names) with the
    five outputs, status ok, one overlay per page, and chunks on its pages."""
    examples = sorted(p.name for p in EXAMPLES.iterdir() if p.suffix in (".pdf", ".png", ".pptx"))
    if shutil.which("soffice") is None and shutil.which("libreoffice") is None:
        examples = [name for name in examples if not name.endswith(".pptx")]
    folders: dict[str, Path] = {}
    for record in out.glob("*/document.json"):
        source = json.loads(record.read_text(encoding="utf-8"))["source"]
        folders[Path(source).name] = record.parent
    for example in examples:
        folder = folders.get(example)
        if folder is None:
            raise SmokeError(f"make demo wrote no folder for {example} in {out}")
        for name in ("document.md", "document.json", "timings.json", "review.md", "chunks.jsonl"):
            if not (folder / name).is_file() or (folder / name).stat().st_size == 0:
                raise SmokeError(f"make demo wrote no {folder / name}")
        document = json.loads((folder / "document.json").read_text(encoding="utf-8"))
        if document["status"] != "ok":
            raise SmokeError(f"{example}: status {document['status']}: {document['errors']}")
        pages = document["pages"]
        overlays = sorted((folder / "pages").glob("*.png"))
        if not pages or len(overlays) != len(pages):
            raise SmokeError(f"{example}: {len(pages)} pages, {len(overlays)} overlays")
        stages = json.loads((folder / "timings.json").read_text(encoding="utf-8"))
        if not stages:
            raise SmokeError(f"{example}: empty timings.json")
        lines = (folder / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
        on = {page for line in lines for page in json.loads(line)["pages"]}
        if not on or not on <= {page["index"] for page in pages}:
            raise SmokeError(f"{example}: chunks.jsonl on pages {sorted(on)}")
        print(f"ok   demo: {example} -> {folder.name}/ ({len(pages)} pages, {len(lines)} chunks)")


LOADER_PROBE = """
import sys
from pagereader.integrations.{module} import {cls}
loader = {cls}({args})
documents = list(loader.{method})
texts = [getattr(d, "page_content", None) or getattr(d, "text", "") for d in documents]
if not documents or "Median latency per slide" not in " ".join(texts):
    sys.exit("no document holds the deck's text: " + repr(texts[:3]))
print(len(documents))
"""


def smoke_loader(work: Path, extra: str, module: str, cls: str, args: str, method: str) -> None:
    """A loader installed with its extra alone reads the shipped deck."""
    code = LOADER_PROBE.format(module=module, cls=cls, args=args, method=method)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=600, check=False)
    expect_ok(proc, f"the {extra} loader")
    print(f"ok   {extra}: {proc.stdout.strip()} documents from examples/deck.pdf")
    check_absent_extras(work, {extra})


def smoke_langchain(work: Path) -> None:
    smoke_loader(work, "langchain", "langchain", "PagereaderLoader",
                 "['examples/deck.pdf']", "lazy_load()")


def smoke_llamaindex(work: Path) -> None:
    smoke_loader(work, "llamaindex", "llamaindex", "PagereaderReader", "",
                 "load_data(['examples/deck.pdf'])")


CHECKS: dict[str, Callable[[Path], None]] = {
    "base": smoke_base,
    "service": smoke_service,
    "batch": smoke_batch,
    "eval": smoke_eval,
    "router": smoke_router,
    "docling": smoke_docling,
    "mcp": smoke_mcp,
    "langchain": smoke_langchain,
    "llamaindex": smoke_llamaindex,
}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in (*CHECKS, "demo"):
        print(__doc__)
        return 2
    started = time.monotonic()
    try:
        if sys.argv[1] == "demo":
            smoke_demo(Path(sys.argv[2]))
        else:
            with tempfile.TemporaryDirectory(prefix=f"smoke-{sys.argv[1]}-") as work:
                CHECKS[sys.argv[1]](Path(work))
    except (SmokeError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"FAIL {sys.argv[1]}: {exc}")
        return 1
    print(f"ok   {sys.argv[1]}: all checks in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
