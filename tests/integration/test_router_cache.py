"""The router's response cache, safe for images: ``[router.cache]`` options, the cache in the
written router config (exact mode, revision fields), and the routing tag in router mode against
the recording test server (the crop's SHA-256 is what keeps two crops' answers apart)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from pagereader.config.file import load_config, options_from_mapping, override
from pagereader.config.options import OpenAIEngineOptions, Options
from pagereader.engine_server.server import serve_in_thread
from pagereader.engines import prompts
from pagereader.engines.openai_api import crop_sha256
from pagereader.engines.prompts import parse_routing_tag, prompt_set_digest
from pagereader.errors import ConfigError
from pagereader.pipeline import aparse, make_context
from pagereader.planner.router import router_config

from fault_server import Fault, FaultServer
from fixtures import Fixtures

ENGINES = {
    "parser": {
        "kind": "openai",
        "base_url": "http://10.0.0.5:8000/v1",
        "model": "PaddlePaddle/PaddleOCR-VL",
    },
    "general": {
        "kind": "openai",
        "base_url": "http://10.0.0.6:8001/v1",
        "model": "Qwen/Qwen3-VL-8B-Instruct",
        "prompt_style": "qwen-vl",
    },
}
ROUTES = {"*.figure": ["general"], "*.*": ["parser", "ocr"]}
Served = tuple[FaultServer, str]


def _options(cache: dict[str, Any] | None, **engine_changes: Any) -> Options:
    engines = {name: {**spec} for name, spec in ENGINES.items()}
    for name, changes in engine_changes.items():
        engines[name].update(changes)
    router: dict[str, Any] = {"base_url": "http://127.0.0.1:8801/v1"}
    if cache is not None:
        router["cache"] = cache
    return options_from_mapping({"engines": engines, "routes": ROUTES, "router": router})


def _config(options: Options) -> dict[str, Any]:
    served = [e for e in options.engines.values() if isinstance(e, OpenAIEngineOptions)]
    return router_config(options, prompt_set_digest(served))


def _revisions(config: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each cached decision's revision fields, by decision name."""
    found = {}
    for decision in config["routing"]["decisions"]:
        for plugin in decision.get("plugins", []):
            if plugin["configuration"]["enabled"]:
                found[decision["name"]] = plugin["configuration"]["revision"]
    return found


def test_cache_options_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "cached.toml"
    path.write_text(
        '[engines.parser]\nkind = "openai"\nbase_url = "http://h:1/v1"\nmodel = "m"\n'
        '[router]\nbase_url = "http://127.0.0.1:8801/v1"\n'
        '[router.cache]\nbackend = "redis"\naddress = "cache.internal:6380"\nttl_s = 600\n',
        encoding="utf-8",
    )
    cache = load_config(path).router.cache  # type: ignore[union-attr]
    assert cache is not None
    assert (cache.backend, cache.address, cache.ttl_s) == ("redis", "cache.internal:6380", 600)
    assert cache.host_port() == ("cache.internal", 6380)
    assert cache.max_entries == 100_000


@pytest.mark.parametrize(
    ("cache", "problem"),
    [
        ({"backend": "redis"}, "needs address"),
        ({"backend": "valkey", "address": "no-port"}, "host:port"),
        ({"backend": "redis", "address": "h:70000"}, "host:port"),
        ({"backend": "memory", "address": "h:6379"}, 'not "memory"'),
        ({"backend": "memcached"}, "router.cache.backend"),
        ({"backend": "memory", "ttl_s": 0}, "router.cache.ttl_s"),
        ({"backend": "memory", "max_entries": 10**9}, "router.cache.max_entries"),
        ({"backend": "memory", "similarity": 0.9}, "router.cache.similarity"),
        ({}, "router.cache.backend"),
    ],
)
def test_cache_options_are_validated(cache: dict[str, Any], problem: str) -> None:
    with pytest.raises(ConfigError, match=problem):
        _options(cache)


def test_cache_options_go_through_override() -> None:
    options = _options({"backend": "memory"})
    changed = override(options, {("router", "cache", "ttl_s"): 600}, source="command line")
    assert changed.router is not None and changed.router.cache is not None
    assert (changed.router.cache.backend, changed.router.cache.ttl_s) == ("memory", 600)
    with pytest.raises(ConfigError, match=r"command line.*router\.cache\.ttl_s"):
        override(options, {("router", "cache", "ttl_s"): -1}, source="command line")


def test_crop_digest_follows_the_pixels_not_the_encoding() -> None:
    image = Image.new("RGB", (40, 30), "white")
    image.putpixel((3, 4), (10, 20, 30))
    digests = set()
    for level in (0, 9):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=level)
        with Image.open(io.BytesIO(buffer.getvalue())) as decoded:
            digests.add(crop_sha256(decoded))
    assert digests == {crop_sha256(image)}
    assert crop_sha256(image.convert("RGBA")) == crop_sha256(image)  # sent as RGB
    changed = image.copy()
    changed.putpixel((39, 29), (255, 255, 254))
    assert crop_sha256(changed) != crop_sha256(image)
    reshaped = Image.frombytes("RGB", (30, 40), image.tobytes())  # same bytes, other shape
    assert crop_sha256(reshaped) != crop_sha256(image)


def test_cache_is_off_unless_set() -> None:
    config = _config(_options(None))
    assert "stores" not in config["global"]
    assert all("plugins" not in d for d in config["routing"]["decisions"])


@pytest.mark.parametrize(
    ("cache", "store"),
    [
        (
            {"backend": "memory", "ttl_s": 900, "max_entries": 2000},
            {"backend_type": "memory", "ttl_seconds": 900, "max_entries": 2000},
        ),
        (
            {"backend": "redis", "address": "10.1.2.3:6379"},
            {"backend_type": "redis", "redis": {"connection": {"host": "10.1.2.3", "port": 6379}}},
        ),
        (
            {"backend": "valkey", "address": "valkey.svc:6390", "ttl_s": 7200},
            {
                "backend_type": "valkey",
                "ttl_seconds": 7200,
                "valkey": {"connection": {"host": "valkey.svc", "port": 6390}},
            },
        ),
    ],
)
def test_store_and_exact_plugins(cache: dict[str, Any], store: dict[str, Any]) -> None:
    config = _config(_options(cache))
    written = config["global"]["stores"]["response_cache"]
    assert written["enabled"] is True and written["similarity_threshold"] == 1.0
    for key, value in store.items():
        if isinstance(value, dict):
            assert {k: written[key]["connection"][k] for k in value["connection"]} == (
                value["connection"]
            )
        else:
            assert written[key] == value
    models = {"route-any-figure": "Qwen/Qwen3-VL-8B-Instruct"}
    for decision in config["routing"]["decisions"]:
        (plugin,) = decision["plugins"]
        settings = plugin["configuration"]
        assert plugin["type"] == "response_cache"
        if decision["name"] == "default-route":
            assert settings == {"enabled": False}
            continue
        assert (settings["mode"], settings["scope"]) == ("exact", "global")
        expected = models.get(decision["name"], "PaddlePaddle/PaddleOCR-VL")
        assert settings["revision"]["model_revision"] == expected
        assert {"type": "input_modality", "name": "image_input"} in decision["rules"]["conditions"]
    assert config["routing"]["signals"]["input_modality"][0]["modality"] == "image"


def test_prompt_or_model_change_changes_the_revisions(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = {"backend": "memory"}
    base = _revisions(_config(_options(cache)))
    assert set(base) == {"route-any-figure", "route-any-any"}
    assert _revisions(_config(_options(cache))) == base  # deterministic
    prompt = _revisions(_config(_options(cache, parser={"prompts": {"text": "Read it:"}})))
    assert {r["prompt_revision"] for r in prompt.values()}.isdisjoint(
        {r["prompt_revision"] for r in base.values()}
    )
    assert all(prompt[d]["model_revision"] == base[d]["model_revision"] for d in base)
    budget = _revisions(_config(_options(cache, parser={"max_tokens": {"table": 999}})))
    assert budget["route-any-any"]["prompt_revision"] != base["route-any-any"]["prompt_revision"]
    model = _revisions(_config(_options(cache, general={"model": "Qwen/Qwen3-VL-32B"})))
    assert model["route-any-figure"]["model_revision"] == "Qwen/Qwen3-VL-32B"
    assert model["route-any-any"] == base["route-any-any"]
    # a prompt changed in the code, not the config, changes the digest too
    monkeypatch.setitem(prompts.PADDLE_TASK_PROMPTS, "table", "Table Recognition (v2):")
    edited = _revisions(_config(_options(cache)))
    assert edited["route-any-any"]["prompt_revision"] != base["route-any-any"]["prompt_revision"]


@pytest.fixture(scope="module")
def recorder() -> Iterator[Served]:
    server = FaultServer()
    with serve_in_thread(server.app()) as url:
        yield server, url


async def _routed_parse(path: Path, url: str) -> None:
    options = Options(
        engines={
            "parser": OpenAIEngineOptions(
                base_url="http://127.0.0.1:9/v1", model="PaddlePaddle/PaddleOCR-VL", retries=0
            )
        },
        routes={"*.*": ["parser"]},
        router={"base_url": url, "cache": {"backend": "memory"}},
        pages=(1,),
        verify={"enabled": False},
    )
    ctx = make_context(options)
    try:
        await aparse(path, ctx=ctx)
    finally:
        await asyncio.gather(*(engine.aclose() for engine in ctx.engines.values()))


def _pixels_sha256(body: dict[str, Any]) -> str:
    """The digest of the pixels the request sent, decoded from its data URL here."""
    url = body["messages"][-1]["content"][0]["image_url"]["url"]
    with Image.open(io.BytesIO(base64.b64decode(url.split(",", 1)[1]))) as image:
        image.load()
        header = f"{image.mode} {image.width}x{image.height}\n".encode("ascii")
        return hashlib.sha256(header + image.tobytes()).hexdigest()


async def test_tags_tell_crops_apart_and_repeat_exactly(
    recorder: Served, fixtures: Fixtures
) -> None:
    server, url = recorder
    server.reset(Fault(answer="cached slide text"))
    await _routed_parse(fixtures.deck_pdf, url)
    first = list(server.requests)
    server.reset(Fault(answer="cached slide text"))
    await _routed_parse(fixtures.deck_pdf, url)
    second = list(server.requests)
    assert len(first) == len(second) >= 2

    tags = [parse_routing_tag(body["messages"][0]["content"]) for body in first]
    for body, tag in zip(first, tags, strict=True):
        assert tag["crop"] == body["metadata"]["crop_sha256"] == _pixels_sha256(body)
        assert tag["task"] == body["metadata"]["task"] == "text"
        bounds = body["mm_processor_kwargs"]
        assert tag["pixels"] == f"{bounds['min_pixels']}-{bounds['max_pixels']}"
        prompt = body["messages"][-1]["content"][1]["text"]
        assert tag["prompt"] == hashlib.sha256(prompt.encode()).hexdigest()[:16]
    crops = {tag["crop"] for tag in tags}
    assert len(crops) == len(first), "every block of the slide is a different crop"
    assert len({body["messages"][0]["content"] for body in first}) == len(first)

    # the same crop sent again is the same request, byte for byte: a cache keyed on it hits
    def by_crop(bodies: list[dict[str, Any]]) -> dict[str, str]:
        return {b["metadata"]["crop_sha256"]: json.dumps(b, sort_keys=True) for b in bodies}

    assert by_crop(first) == by_crop(second)

    # the trap: without the crop's digest the tags of different crops are the same text
    stripped = {
        " ".join(f"{k}={v}" for k, v in tag.items() if k != "crop")
        for tag in tags
        if tag["pixels"] == tags[0]["pixels"]
    }
    same_budget = sum(tag["pixels"] == tags[0]["pixels"] for tag in tags)
    assert same_budget >= 2 and len(stripped) == 1
