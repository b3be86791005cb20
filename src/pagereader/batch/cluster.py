"""Starting or joining Ray: a local cluster started by the command, or an existing one."""

from __future__ import annotations

import logging
import os

import ray

logger = logging.getLogger(__name__)


def connect(address: str | None, num_cpus: int | None) -> bool:
    """Join the cluster at ``address`` (``ray://...``, ``auto``; RAY_ADDRESS is read by Ray
    itself) or start a local one with ``num_cpus``; True when this call started Ray."""
    if ray.is_initialized():
        return False
    if address or os.environ.get("RAY_ADDRESS"):
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    else:
        ray.init(
            num_cpus=num_cpus,
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
        )
    return True


def disconnect() -> None:
    ray.shutdown()
