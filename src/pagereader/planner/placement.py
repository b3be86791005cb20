"""What fits where, and a recommended layout of served models over a set of cards."""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass, field, replace

from pagereader.errors import ConfigError
from pagereader.planner.catalog import ModelSpec
from pagereader.planner.hardware import GpuSpec, resolve
from pagereader.planner.memory import Budget, WeightDtype, budget, weights_bytes
from pagereader.planner.platforms import placeable
from pagereader.planner.slide import Estimate, Served, critical_path, engine_seconds
from pagereader.planner.timeconst import profile_for
from pagereader.planner.timemodel import CriticalPath
from pagereader.planner.tpu import CHIPS_PER_HOST

logger = logging.getLogger(__name__)

#: Fewer concurrent requests than this and a replica cannot batch one slide's blocks.
MIN_CONCURRENCY = 8
#: Below this a replica is "tight": it serves, with little KV to spare.
TIGHT_CONCURRENCY = 16
#: --max-num-seqs: a replica that can hold this many is not short of KV; a second replica on
#: the same card only pays when each half still holds this many.
MAX_NUM_SEQS = 64
MAX_CARDS = 64
MAX_REPLICAS_PER_CARD = 2


@dataclass(frozen=True)
class GpuSet:
    """N cards of one kind, as written on the command line (2xA100-40), and the note a loose
    name left ('A100' read as the 80 GB card)."""

    count: int
    gpu: GpuSpec
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.count}x{self.gpu.key.upper()}"


def parse_gpus(text: str) -> list[GpuSet]:
    """Parse '2xA100-40', '8xTPU-v6e', 'tpu-v6e-8', '1xM1-Max-64' or a comma-separated list
    of such sets. A slice name carries its chips; a count before it multiplies them."""
    sets: list[GpuSet] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        match = re.fullmatch(r"(?:(\d+)\s*[x×*]\s*)?([A-Za-z0-9][A-Za-z0-9 _.-]*)", part)
        if match is None:
            raise ConfigError(
                f"cannot read GPU set {part!r}", hint="write COUNTxKIND, e.g. 2xA100-40"
            )
        found = resolve(match.group(2))
        count = int(match.group(1) or 1) * (found.count or 1)
        if not 1 <= count <= MAX_CARDS:
            raise ConfigError(f"GPU count {count} in {part!r} is outside 1..{MAX_CARDS}")
        if found.gpu.platform == "apple" and count != 1:
            raise ConfigError(
                f"{part!r}: a plan sizes one Mac", hint="write 1x" + found.gpu.key.upper()
            )
        sets.append(GpuSet(count, found.gpu, found.note))
    if not sets:
        raise ConfigError("no GPU set given", hint="e.g. --gpus 2xA100-40")
    return sets


@dataclass(frozen=True)
class Option:
    """One way to serve a model: precision, tensor parallelism, replicas per card."""

    dtype: WeightDtype
    tp: int
    budget: Budget
    replicas_per_card: int = 1

    @property
    def concurrency(self) -> int:
        return self.budget.concurrency

    def label(self) -> str:
        prefix = _PREFIX.get(self.dtype, "")
        if self.tp > 1:
            return f"{prefix}TP{self.tp}"
        if self.replicas_per_card > 1:
            return f"{prefix}{_WORDS.get(self.replicas_per_card, self.replicas_per_card)} per card"
        return f"{prefix}on one card" if prefix else "one per card"


_WORDS = {2: "two", 3: "three", 4: "four"}
_PREFIX = {"int4": "INT4 ", "fp8": "FP8 ", "q4": "MLX 4-bit ", "q8": "MLX 8-bit "}


def _dtypes(gpu: GpuSpec) -> tuple[WeightDtype, ...]:
    """FP8 checkpoints only pay where FP8 tensor cores exist. On a Mac mlx-community's 4-bit
    conversions come first (decode reads every weight a token); on TPU the planner places
    BF16 only, the precision the backend's support matrix tests."""
    if gpu.platform == "apple":
        return ("q4", "q8", "bf16")
    if gpu.platform == "tpu":
        return ("bf16",)
    return ("bf16", "fp8", "int4") if gpu.fp8 else ("bf16", "int4")


def options(model: ModelSpec, gpus: GpuSet) -> list[Option]:
    """Every precision and TP degree the card count allows, in order of preference."""
    found: list[Option] = []
    limit = min(gpus.count, CHIPS_PER_HOST.get(gpus.gpu.key, gpus.count))
    for dtype in _dtypes(gpus.gpu):
        tp = 1
        while tp <= limit:
            found.append(Option(dtype, tp, budget(model, gpus.gpu, dtype, tp)))
            tp *= 2
    return found


def replicas_per_card(model: ModelSpec, gpu: GpuSpec, dtype: WeightDtype) -> int:
    """How many replicas share a card while each still holds MAX_NUM_SEQS requests."""
    k = 1
    while k < MAX_REPLICAS_PER_CARD:
        share = gpu.max_utilization / (k + 1)
        if budget(model, gpu, dtype, 1, share).concurrency < MAX_NUM_SEQS:
            break
        k += 1
    return k


@dataclass(frozen=True)
class Fit:
    """One cell of the table: the preferred way to serve a model on a GPU set."""

    model: ModelSpec
    gpus: GpuSet
    option: Option | None
    alternative: Option | None = None

    @property
    def tight(self) -> bool:
        return self.option is not None and self.option.concurrency < TIGHT_CONCURRENCY

    def cell(self) -> str:
        if self.option is None:
            return "no"
        text = f"{self.option.label()} ({self.option.concurrency} req"
        text += ", tight)" if self.tight else ")"
        if self.alternative is not None:
            text += f" or {self.alternative.label()} ({self.alternative.concurrency} req)"
        return text


def fit(model: ModelSpec, gpus: GpuSet) -> Fit:
    """Prefer full precision on the fewest cards; fall back to FP8, then INT4, then more TP."""
    candidates = options(model, gpus)
    usable = [o for o in candidates if o.concurrency >= MIN_CONCURRENCY]
    if not usable:
        return Fit(model, gpus, None)
    best = usable[0]
    if best.tp == 1 and gpus.gpu.shareable:
        best = replace(best, replicas_per_card=replicas_per_card(model, gpus.gpu, best.dtype))
    alternative = None
    if best.tp > 1 or best.budget.concurrency < TIGHT_CONCURRENCY:
        single = [o for o in usable if o.tp == 1 and o.dtype != best.dtype]
        alternative = single[0] if single else None
    return Fit(model, gpus, best, alternative)


@dataclass
class Instance:
    """One vLLM server: a model on one card (or a TP group), at a share of its memory."""

    model: ModelSpec
    dtype: WeightDtype
    tp: int
    cards: list[int]
    utilization: float
    port: int = 0
    concurrency: int = 0


@dataclass
class Layout:
    """Served instances over a GPU set, with a latency estimate against the target."""

    gpus: GpuSet
    instances: list[Instance] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    slide_s: float = 0.0
    target_s: float = 5.0
    path: CriticalPath | None = None
    estimate: Estimate | None = None

    @property
    def meets_target(self) -> bool:
        return bool(self.instances) and self.slide_s <= self.target_s


def need_utilization(model: ModelSpec, gpu: GpuSpec, dtype: WeightDtype) -> float:
    """The share of a card a replica needs to hold MAX_NUM_SEQS requests (capped at the whole)."""
    full = budget(model, gpu, dtype, 1)
    if full.concurrency <= MAX_NUM_SEQS or not gpu.shareable:
        return gpu.max_utilization
    needed = full.weights_per_rank + full.headroom_per_rank
    needed += MAX_NUM_SEQS * full.request_bytes_per_rank
    return math.ceil(needed / gpu.planned_bytes * 100) / 100


def _place(
    models: list[ModelSpec], gpus: GpuSet, target_s: float
) -> tuple[list[Instance], list[str]]:
    """First-fit: TP groups take whole cards, single-card models share cards where they fit."""
    warnings: list[str] = []
    free = list(range(gpus.count))
    shares: dict[int, float] = {}
    placed: list[Instance] = []
    fits = [(m, fit(m, gpus)) for m in models]
    order = sorted(
        fits,
        key=lambda mf: -(weights_bytes(mf[0], mf[1].option.dtype) if mf[1].option else 0),
    )
    for n, (model, f) in enumerate(order):
        reserve = 1 if n + 1 < len(order) else 0
        chosen = _choose(model, gpus, f, free, shares, target_s, reserve)
        if chosen is None:
            warnings.append(f"{model.key} does not fit on {gpus.label} beside the other models")
            continue
        placed.append(chosen)
    return placed, warnings


def _choose(
    model: ModelSpec,
    gpus: GpuSet,
    f: Fit,
    free: list[int],
    shares: dict[int, float],
    target_s: float,
    reserve: int,
) -> Instance | None:
    """The first option that meets the target and fits what is left (the fastest first when
    none meets it); TP keeps `reserve` cards."""
    if f.option is None:
        return None
    full = gpus.gpu.max_utilization
    usable = [o for o in options(model, gpus) if o.concurrency >= MIN_CONCURRENCY]
    candidates = [f.option, *usable]
    seconds = {id(o): engine_seconds(model, o.dtype, o.tp, gpus.gpu) for o in candidates}
    if seconds[id(f.option)] > target_s:
        fast = sorted((o for o in candidates if seconds[id(o)] <= target_s), key=lambda o: o.tp)
        fastest = sorted(candidates, key=lambda o: seconds[id(o)])
        candidates = [*fast, *fastest] if fast else fastest
    for option in candidates:
        if option.tp > 1:
            if len(free) - reserve >= option.tp:
                cards = [free.pop(0) for _ in range(option.tp)]
                for c in cards:
                    shares[c] = full
                return Instance(model, option.dtype, option.tp, cards, full)
            continue
        need = need_utilization(model, gpus.gpu, option.dtype)
        for card, used in sorted(shares.items()):
            if gpus.gpu.shareable and used + need <= full + 1e-9:
                shares[card] = used + need
                return Instance(model, option.dtype, 1, [card], need)
        if free:
            card = free.pop(0)
            shares[card] = need
            return Instance(model, option.dtype, 1, [card], need)
    return None


def _replicate(placed: list[Instance], gpus: GpuSet) -> list[Instance]:
    """Copy the placed card pattern onto the cards left free, one group at a time."""
    used = sorted({c for i in placed for c in i.cards})
    groups: list[list[Instance]] = []
    seen: set[int] = set()
    for card in used:
        if card in seen:
            continue
        group = [i for i in placed if card in i.cards]
        members = sorted({c for i in group for c in i.cards})
        seen.update(members)
        groups.append(group)
    result = list(placed)
    next_card = (max(used) + 1) if used else 0
    while groups:
        progressed = False
        for group in groups:
            width = len({c for i in group for c in i.cards})
            if next_card + width > gpus.count:
                continue
            base = min(c for i in group for c in i.cards)
            for inst in group:
                cards = [c - base + next_card for c in inst.cards]
                result.append(replace(inst, cards=cards))
            next_card += width
            progressed = True
        if not progressed:
            break
    return result


def _renumber(instances: list[Instance], models: list[ModelSpec]) -> list[Instance]:
    """Number cards so that the models come in the order asked for (the parser on card 0)."""
    rank = {m.key: n for n, m in enumerate(models)}
    cards = sorted(
        {c for i in instances for c in i.cards},
        key=lambda c: (min(rank[i.model.key] for i in instances if c in i.cards), c),
    )
    new = {old: n for n, old in enumerate(cards)}
    for inst in instances:
        inst.cards = sorted(new[c] for c in inst.cards)
    return instances


def _spread(instances: list[Instance], full: float) -> None:
    """Give each card's spare memory to the instances on it, in proportion to their need."""
    by_card: dict[int, list[Instance]] = {}
    for inst in instances:
        if inst.tp == 1:
            by_card.setdefault(inst.cards[0], []).append(inst)
    for group in by_card.values():
        if len(group) == 1:
            group[0].utilization = full
            continue
        total = sum(i.utilization for i in group)
        for inst in group:
            inst.utilization = math.floor(inst.utilization / total * full * 100) / 100


def slide_path(layout: Layout, estimate: Estimate | None = None) -> CriticalPath:
    """A slide's critical path through the first replica of each model of the layout."""
    est = estimate or Estimate()
    first: dict[str, Instance] = {}
    for inst in layout.instances:
        first.setdefault(inst.model.key, inst)
    served = [
        Served(i.model, i.dtype, i.tp, est.calibration.get(i.model.key)) for i in first.values()
    ]
    return critical_path(served, layout.gpus.gpu, est, layout.gpus.gpu.platform == "apple")


def recommend(
    models: list[ModelSpec], gpus: GpuSet, target_s: float, estimate: Estimate | None = None
) -> Layout:
    """Place every model the platform serves, replicate onto spare cards, then estimate a
    slide's critical path with the platform's time constants."""
    est = estimate or Estimate()
    est = replace(est, constants=profile_for(gpus.gpu.platform, est.constants))
    models, replaced = placeable(models, gpus.gpu)
    placed, warnings = _place(models, gpus, target_s)
    warnings = [*([gpus.note] if gpus.note else []), *replaced, *warnings]
    instances = _renumber(_replicate(placed, gpus), models)
    _spread(instances, gpus.gpu.max_utilization)
    port = 8000
    rank = {m.key: n for n, m in enumerate(models)}
    for inst in sorted(instances, key=lambda i: (rank[i.model.key], i.cards[0])):
        inst.port = port
        port += 1
        inst.concurrency = budget(
            inst.model, gpus.gpu, inst.dtype, inst.tp, inst.utilization
        ).concurrency
    instances.sort(key=lambda i: (i.cards[0], i.port))
    layout = Layout(gpus, instances, warnings, target_s=target_s, estimate=est)
    if instances:
        layout.path = slide_path(layout, est)
        layout.slide_s = round(layout.path.seconds, 2)
        if layout.slide_s > target_s and gpus.gpu.platform == "apple":
            layout.warnings.append(
                f"estimated {layout.slide_s:.1f} s a slide is above the {target_s:g} s target: "
                "on a Mac, iterate on prompts, the verifier and the eval set; measure the "
                "budget on the GPUs"
            )
        elif layout.slide_s > target_s:
            slowest = layout.path.bottleneck
            layout.warnings.append(
                f"estimated critical path {layout.slide_s:.1f} s is above the {target_s:g} s "
                f"target ({slowest.label if slowest else 'CPU stages'} is the slowest): use "
                "INT4 or TP for the slow model, or fewer output tokens"
            )
    logger.debug("layout for %s: %d instances", gpus.label, len(instances))
    return layout
