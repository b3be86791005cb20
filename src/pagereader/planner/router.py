"""The vLLM Semantic Router config (vllm-sr schema v0.3) written from pagereader's route table.

In router mode every served request goes to one endpoint with model ``vllm-sr/auto`` and a
body ``metadata`` map (``page_class``, ``task``, ``block_kind``). The router's metadata
signals read that map, and one decision per route picks the models of the route's served
engines, so the route table stays the only place routing is written down.

Precedence mirrors the client's lookup (``class.kind`` > ``*.kind`` > ``class.*`` > ``*.*``)
through decision priorities (higher wins). Routes whose chain names no served engine send
nothing to the router and get no decision. Every route decision also requires an image in the
request (the router's input-modality signal): pagereader only ever sends crops.

With ``[router.cache]`` the route decisions carry the router's response cache in exact mode.
The cache keys on the request's text, which would be the same for every block of a task, so
the client's routing tag carries the crop's SHA-256 (see ``engines/prompts.py``); the revision
fields hold the decision's model names and the prompt-set digest, so a model or prompt change
starts afresh instead of serving answers given to the old ones.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import yaml

from pagereader.config.options import OpenAIEngineOptions, Options, RouterCacheOptions
from pagereader.errors import ConfigError

AUTO_MODEL = "vllm-sr/auto"
DEFAULT_LISTENER_PORT = 8899
GRPC_MAX_MSG_SIZE_MB = 64
IMAGE_SIGNAL = "image_input"
_PRIORITY = {(True, True): 400, (False, True): 300, (True, False): 200, (False, False): 100}


def _endpoint(base_url: str) -> tuple[str, str]:
    """``host:port`` and protocol of an OpenAI base URL."""
    parts = urlsplit(base_url)
    if not parts.hostname:
        raise ConfigError(f"cannot read a host from base_url {base_url!r}")
    protocol = parts.scheme or "http"
    port = parts.port or (443 if protocol == "https" else 80)
    return f"{parts.hostname}:{port}", protocol


def _served(options: Options) -> dict[str, OpenAIEngineOptions]:
    served = {n: e for n, e in options.engines.items() if isinstance(e, OpenAIEngineOptions)}
    if not served:
        raise ConfigError('the config has no served engines (kind = "openai") to route to')
    return served


def _providers(served: dict[str, OpenAIEngineOptions], default_model: str) -> dict[str, Any]:
    """One provider model per model id; engines serving the same model are its replicas."""
    models: dict[str, list[dict[str, Any]]] = {}
    for name, engine in served.items():
        endpoint, protocol = _endpoint(engine.base_url)
        models.setdefault(engine.model, []).append(
            {
                "name": name,
                "provider": "vllm",
                "endpoint": endpoint,
                "protocol": protocol,
                "weight": 100,
            }
        )
    return {
        "defaults": {"model": default_model},
        "models": [{"name": model, "backend_refs": refs} for model, refs in models.items()],
    }


def _cache_plugin(models: list[str], prompt_revision: str) -> dict[str, Any]:
    """The response cache of one decision: exact matches, shared by every client, with the
    revision fields that retire answers when the models or the prompts change."""
    return {
        "type": "response_cache",
        "configuration": {
            "enabled": True,
            "mode": "exact",
            "scope": "global",
            "revision": {"model_revision": "+".join(models), "prompt_revision": prompt_revision},
        },
    }


def _cache_store(cache: RouterCacheOptions) -> dict[str, Any]:
    """``global.stores.response_cache``: where the answers live and for how long."""
    store: dict[str, Any] = {
        "enabled": True,
        "backend_type": cache.backend,
        "similarity_threshold": 1.0,
        "max_entries": cache.max_entries,
        "ttl_seconds": cache.ttl_s,
    }
    if cache.backend == "memory":
        store["eviction_policy"] = "lru"
    else:
        host, port = cache.host_port()
        store[cache.backend] = {"connection": {"host": host, "port": port, "database": 0}}
    return store


def _decisions(
    options: Options,
    served: dict[str, OpenAIEngineOptions],
    default_model: str,
    prompt_revision: str,
) -> tuple[list[dict[str, Any]], set[str], set[str]]:
    cached = options.router is not None and options.router.cache is not None
    decisions: list[dict[str, Any]] = []
    classes: set[str] = set()
    kinds: set[str] = set()
    for key, chain in options.routes.items():
        models = list(dict.fromkeys(served[n].model for n in chain if n in served))
        if not models:
            continue
        page_class, _, kind = key.partition(".")
        conditions: list[dict[str, Any]] = [{"type": "input_modality", "name": IMAGE_SIGNAL}]
        if page_class != "*":
            classes.add(page_class)
            conditions.append({"type": "metadata", "name": f"page_class_{page_class}"})
        if kind != "*":
            kinds.add(kind)
            conditions.append({"type": "metadata", "name": f"block_kind_{kind}"})
        decision: dict[str, Any] = {
            "name": f"route-{page_class.replace('*', 'any')}-{kind.replace('*', 'any')}",
            "description": f"pagereader route {key}: {' -> '.join(chain)}",
            "priority": _PRIORITY[(page_class != "*", kind != "*")],
            "rules": {"operator": "AND", "conditions": conditions},
            "modelRefs": [{"model": m, "use_reasoning": False} for m in models],
        }
        if cached:
            decision["plugins"] = [_cache_plugin(models, prompt_revision)]
        decisions.append(decision)
    decisions.sort(key=lambda d: -int(d["priority"]))
    default: dict[str, Any] = {
        "name": "default-route",
        "description": "requests no route names go to the default model",
        "priority": 1,
        "rules": {"operator": "AND", "conditions": []},
        "modelRefs": [{"model": default_model, "use_reasoning": False}],
    }
    if cached:  # not pagereader's crops: never answered from the cache
        default["plugins"] = [{"type": "response_cache", "configuration": {"enabled": False}}]
    decisions.append(default)
    return decisions, classes, kinds


def _default_model(options: Options, served: dict[str, OpenAIEngineOptions]) -> str:
    """The model of the catch-all route's first served engine, else the first served one."""
    for name in options.routes.get("*.*", []):
        if name in served:
            return served[name].model
    return next(iter(served.values())).model


def router_config(options: Options, prompt_revision: str) -> dict[str, Any]:
    """The router config as a mapping (vllm-sr v0.3). ``prompt_revision`` is the digest of the
    served engines' prompt set (``engines.prompts.prompt_set_digest``), the cache's revision."""
    served = _served(options)
    default_model = _default_model(options, served)
    decisions, classes, kinds = _decisions(options, served, default_model, prompt_revision)
    metadata = [
        {
            "name": f"page_class_{c}",
            "key": "page_class",
            "predicate": {"equals": c},
            "description": f"pagereader classified the page as {c}",
        }
        for c in sorted(classes)
    ] + [
        {
            "name": f"block_kind_{k}",
            "key": "block_kind",
            "predicate": {"equals": k},
            "description": f"the block is a {k}",
        }
        for k in sorted(kinds)
    ]
    port = DEFAULT_LISTENER_PORT
    if options.router is not None:
        port = urlsplit(options.router.base_url).port or DEFAULT_LISTENER_PORT
    timeout = max(int(e.timeout_s) for e in served.values()) + 30
    routing: dict[str, Any] = {
        "modelCards": [{"name": m} for m in dict.fromkeys(e.model for e in served.values())],
        "decisions": decisions,
    }
    signals: dict[str, Any] = {
        "input_modality": [
            {
                "name": IMAGE_SIGNAL,
                "modality": "image",
                "description": "the request carries an image (every pagereader crop does)",
            }
        ]
    }
    if metadata:
        signals["metadata"] = metadata
    routing["signals"] = signals
    config: dict[str, Any] = {
        "version": "v0.3",
        "listeners": [
            {"name": f"http-{port}", "address": "0.0.0.0", "port": port, "timeout": f"{timeout}s"}
        ],
        "providers": _providers(served, default_model),
        "routing": routing,
        "global": {"integrations": {"looper": {"grpc_max_msg_size_mb": GRPC_MAX_MSG_SIZE_MB}}},
    }
    if options.router is not None and options.router.model != AUTO_MODEL:
        config["global"]["router"] = {"auto_model_name": options.router.model}
    if options.router is not None and options.router.cache is not None:
        config["global"]["stores"] = {"response_cache": _cache_store(options.router.cache)}
    return config


def router_config_yaml(options: Options, prompt_revision: str) -> str:
    """The router config as YAML, with a header saying where it came from."""
    header = (
        "# vLLM Semantic Router config written by `pagereader router-config` from the route\n"
        "# table of the pagereader config: change routes there and regenerate this file.\n"
    )
    body: str = yaml.safe_dump(
        router_config(options, prompt_revision), sort_keys=False, allow_unicode=True
    )
    return header + body
