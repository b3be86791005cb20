"""Scale-out on Ray: ``pagereader batch`` over files, folders, globs, manifests and URIs.

The layers: cli -> batch (inputs, actor pool, exactly-once writer, run manifest, progress) ->
pipeline. The pipeline knows nothing of Ray; this package calls it as ``parse`` does.
"""

from __future__ import annotations

from collections.abc import Iterable

from pagereader.batch.driver import BatchCallback, BatchConfig, BatchRun
from pagereader.batch.manifest import Manifest
from pagereader.batch.progress import BatchStats
from pagereader.batch.storage import BATCH_DIR, Destination
from pagereader.config.options import Options

__all__ = ["BatchConfig", "BatchStats", "run_batch"]

MANIFEST_NAME = "manifest.sqlite"


def run_batch(
    inputs: Iterable[str],
    out: str,
    options: Options,
    config: BatchConfig,
    storage_options: dict[str, object] | None = None,
    on_progress: BatchCallback | None = None,
) -> BatchStats:
    """Parse every input into OUT on the Ray cluster this process is connected to.

    The manifest is SQLite in OUT/_batch on a local OUT; on an object store it is kept in a
    local file during the run and uploaded (with status.jsonl) at the end, and read back from
    there by the next run.
    """
    destination = Destination(out, storage_options)
    with destination.local_copy(f"{BATCH_DIR}/{MANIFEST_NAME}") as path:
        manifest = Manifest(path)
        try:
            run = BatchRun(out, options, config, manifest, storage_options, on_progress)
            return run.run(inputs)
        finally:
            manifest.close()
