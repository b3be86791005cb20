"""The router config written from the route table: valid for ``vllm-sr config validate``, and
routing every (page class, block kind) to the model of the client's own route."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from pagereader.cli.main import app
from pagereader.config.file import load_config
from pagereader.config.options import PAGE_CLASSES, OpenAIEngineOptions, Options
from pagereader.engines.prompts import prompt_set_digest
from pagereader.errors import ConfigError
from pagereader.planner.router import router_config, router_config_yaml
from pagereader.stages.engine_routes import resolve_route
from pagereader.types import BLOCK_KINDS

CONFIGS = Path(__file__).parents[2] / "examples" / "configs"
ROUTED = """
[engines.parser]
kind = "openai"
base_url = "http://10.0.0.5:8000/v1"
model = "PaddlePaddle/PaddleOCR-VL"
[engines.general]
kind = "openai"
base_url = "http://10.0.0.6:8001/v1"
model = "Qwen/Qwen3-VL-8B-Instruct"
prompt_style = "qwen-vl"
[engines.heavy]
kind = "openai"
base_url = "https://gpu.example:9000/v1"
model = "Qwen/Qwen3-VL-32B-Instruct"
prompt_style = "qwen-vl"
timeout_s = 90
[routes]
"digital.text" = ["textlayer"]
"scan.text" = ["parser", "rapidocr"]
"dense.*" = ["heavy", "parser", "rapidocr"]
"*.figure" = ["general"]
"*.table" = ["parser", "rapidocr"]
"*.*" = ["parser", "ocr"]
[router]
base_url = "http://127.0.0.1:8801/v1"
"""


def _vllm_sr() -> str | None:
    found = shutil.which("vllm-sr") or str(Path(sys.executable).parent / "vllm-sr")
    return found if Path(found).exists() else None


def _decide(config: dict[str, Any], metadata: dict[str, str], image: bool = True) -> str:
    """The model the router picks: the highest-priority decision whose signals all match."""
    signals = {s["name"]: s for s in config["routing"]["signals"]["metadata"]}
    modalities = {s["name"]: s["modality"] for s in config["routing"]["signals"]["input_modality"]}

    def matches(condition: dict[str, str]) -> bool:
        if condition["type"] == "input_modality":
            return image and bool(modalities[condition["name"]] == "image")
        signal = signals[condition["name"]]
        return bool(metadata.get(signal["key"]) == signal["predicate"]["equals"])

    for decision in sorted(config["routing"]["decisions"], key=lambda d: -d["priority"]):
        if all(matches(c) for c in decision["rules"]["conditions"]):
            return str(decision["modelRefs"][0]["model"])
    raise AssertionError("no decision matched")


def _config(options: Options) -> dict[str, Any]:
    served = [e for e in options.engines.values() if isinstance(e, OpenAIEngineOptions)]
    return router_config(options, prompt_set_digest(served))


def _yaml(options: Options) -> str:
    served = [e for e in options.engines.values() if isinstance(e, OpenAIEngineOptions)]
    return router_config_yaml(options, prompt_set_digest(served))


@pytest.fixture()
def routed(tmp_path: Path) -> Path:
    path = tmp_path / "routed.toml"
    path.write_text(ROUTED, encoding="utf-8")
    return path


def test_router_and_client_pick_the_same_model(routed: Path) -> None:
    options = load_config(routed)
    config = _config(options)
    served = {n: e for n, e in options.engines.items() if isinstance(e, OpenAIEngineOptions)}
    checked = 0
    for page_class in PAGE_CLASSES:
        for kind in BLOCK_KINDS:
            chain = resolve_route(options.routes, page_class, kind)
            first = next((n for n in chain if n in served), None)
            if first is None:
                continue
            model = _decide(config, {"page_class": page_class, "block_kind": kind})
            assert model == served[first].model, (page_class, kind)
            checked += 1
    assert checked >= 10
    assert _decide(config, {"page_class": "dense", "block_kind": "figure"}) == (
        "Qwen/Qwen3-VL-8B-Instruct"
    )
    assert _decide(config, {"page_class": "dense", "block_kind": "text"}) == (
        "Qwen/Qwen3-VL-32B-Instruct"
    )
    # a request without an image is not one of pagereader's crops: the default model answers
    assert _decide(config, {"page_class": "dense", "block_kind": "text"}, image=False) == (
        "PaddlePaddle/PaddleOCR-VL"
    )


def test_config_shape(routed: Path) -> None:
    config = _config(load_config(routed))
    assert config["version"] == "v0.3"
    assert config["listeners"][0]["port"] == 8801
    assert config["listeners"][0]["timeout"] == "120s"
    models = {m["name"]: m["backend_refs"] for m in config["providers"]["models"]}
    assert models["Qwen/Qwen3-VL-32B-Instruct"] == [
        {
            "name": "heavy",
            "provider": "vllm",
            "endpoint": "gpu.example:9000",
            "protocol": "https",
            "weight": 100,
        }
    ]
    assert config["providers"]["defaults"]["model"] == "PaddlePaddle/PaddleOCR-VL"
    assert config["global"]["integrations"]["looper"]["grpc_max_msg_size_mb"] >= 16
    names = [d["name"] for d in config["routing"]["decisions"]]
    assert "route-digital-text" not in names  # textlayer only: nothing reaches the router
    assert names[-1] == "default-route"


def test_no_served_engine_is_an_error() -> None:
    with pytest.raises(ConfigError, match="no served engines"):
        router_config(Options(), "0" * 16)


@pytest.mark.slow
def test_vllm_sr_validates_the_config(routed: Path, tmp_path: Path) -> None:
    """Each validation takes about 14 s (the CLI loads its catalogs), so they run side by side:
    the route table with and without each response-cache backend, and an example config."""
    binary = _vllm_sr()
    if binary is None:
        pytest.skip("vllm-sr is not installed (pip install vllm-sr)")
    sources = [routed, CONFIGS / "a100x4.toml"]
    for backend, address in (("memory", ""), ("redis", "10.0.0.9:6379"), ("valkey", "kv:6380")):
        cached = tmp_path / f"cached-{backend}.toml"
        setting = f'address = "{address}"\n' if address else ""
        cached.write_text(
            ROUTED + f'[router.cache]\nbackend = "{backend}"\n{setting}ttl_s = 3600\n',
            encoding="utf-8",
        )
        sources.append(cached)
    runs = []
    for source in sources:
        out = tmp_path / f"{source.stem}.yaml"
        options = load_config(source)
        assert (options.router is not None and options.router.cache is not None) == (
            source.stem.startswith("cached")
        )
        out.write_text(_yaml(options), encoding="utf-8")
        runs.append(
            subprocess.Popen(
                [binary, "config", "validate", "--config", str(out)],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    for run in runs:
        output, _ = run.communicate(timeout=180)
        assert run.returncode == 0, output
        assert "Configuration is valid" in output


def test_cli_writes_stdout_or_file(routed: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(app, ["router-config", "--config", str(routed)])
    assert shown.exit_code == 0, shown.output
    assert yaml.safe_load(shown.stdout)["version"] == "v0.3"
    out = tmp_path / "r.yaml"
    written = runner.invoke(app, ["router-config", "--config", str(routed), "-o", str(out)])
    assert written.exit_code == 0
    assert yaml.safe_load(out.read_text(encoding="utf-8")) == yaml.safe_load(shown.stdout)
    missing = runner.invoke(app, ["router-config", "--config", str(tmp_path / "none.toml")])
    assert missing.exit_code == 1
    assert "config file not found" in missing.output
