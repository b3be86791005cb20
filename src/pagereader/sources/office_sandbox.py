"""Where LibreOffice runs: without network, and where it can, without the rest of the disk.

The sanitized copy (sources/office_links.py) already holds no outside reference; this is the
second layer, for whatever a renderer might still follow. In order of preference:

- ``bwrap`` (bubblewrap): new network, user, IPC and PID namespaces, and a file system of
  the system's programs and fonts read-only, an empty ``/tmp``, and only the two folders the
  conversion needs (the sanitized copy's and the private profile's) writable. No network, no
  home, no other files.
- ``unshare``: new user and network namespaces; no network, but the file system is the
  caller's (the sanitized copy is then the only defence against ``file://`` references).
- ``none``: LibreOffice as it is (a platform without namespaces, such as macOS); a warning says
  so once a process.

``PAGEREADER_OFFICE_ISOLATION`` (``auto``, ``bwrap``, ``unshare``, ``none``) chooses; ``auto``
takes the first that works here. Either way LibreOffice gets a fresh profile and home of its
own, macros off, and a minimal environment (no proxies, no tokens).
"""

from __future__ import annotations

import functools
import logging
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from pagereader.config.settings import office_isolation
from pagereader.errors import ConfigError

logger = logging.getLogger(__name__)

ISOLATIONS = ("bwrap", "unshare", "none")
# the system's programs, libraries and fonts, read-only; nothing that holds users' data
_SYSTEM_PATHS = ("/usr", "/etc/fonts", "/etc/libreoffice", "/etc/ld.so.cache", "/etc/alternatives")
_SYSTEM_PATHS_TRY = ("/var/cache/fontconfig", "/etc/localtime", "/opt")
_TOP_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_PROBE_TIMEOUT_S = 20
# macros never run, and no linked picture or document link is loaded when a document opens
_PROFILE_SETTINGS = (
    ("Office.Common/Security/Scripting", "MacroSecurityLevel", "3"),
    ("Office.Common/Security/Scripting", "DisableMacrosExecution", "true"),
    ("Office.Common/Security/Scripting", "BlockUntrustedRefererLinks", "true"),
    ("Office.Writer/Content/Update", "Link", "0"),
    ("Office.Calc/Content/Update", "Link", "0"),
)


def prepare_profile(profile: Path) -> None:
    """A fresh LibreOffice user profile with macros and link updates off."""
    user = profile / "user"
    user.mkdir(parents=True, exist_ok=True)
    items = "".join(
        f'<item oor:path="/org.openoffice.{path}"><prop oor:name="{name}" oor:op="fuse">'
        f"<value>{value}</value></prop></item>\n"
        for path, name, value in _PROFILE_SETTINGS
    )
    (user / "registrymodifications.xcu").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
        f"{items}</oor:items>\n",
        encoding="utf-8",
    )


def isolated(
    command: Sequence[str], writable: Sequence[Path], isolation: str | None = None
) -> tuple[list[str], dict[str, str], str]:
    """``command`` wrapped to run isolated, its environment, and the isolation used.

    ``writable``: the folders the command reads and writes (the sanitized copy's folder and
    the profile); with ``bwrap`` they are the only ones it sees besides the system's own.
    ``isolation``: as ``PAGEREADER_OFFICE_ISOLATION`` (its value when None)."""
    chosen = choose_isolation(command[0], isolation)
    home = str(writable[-1])
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": home,
        "LANG": os.environ.get("LANG", "C.UTF-8"),
        "TMPDIR": str(writable[0]),
    }
    if chosen == "bwrap":
        return [*_bwrap(command[0], writable, home), *command], env, chosen
    if chosen == "unshare":
        return ["unshare", "--user", "--map-root-user", "--net", *command], env, chosen
    return list(command), env, chosen


def choose_isolation(program: str, wanted: str | None = None) -> str:
    """The isolation LibreOffice at ``program`` gets here: ``wanted`` (by default
    ``PAGEREADER_OFFICE_ISOLATION``) or, for ``auto``, the best that works; a ConfigError when
    the one asked for does not work."""
    return _choose(wanted or office_isolation(), program)


def _choose(wanted: str, program: str) -> str:
    if wanted not in ("auto", *ISOLATIONS):
        raise ConfigError(
            f"PAGEREADER_OFFICE_ISOLATION={wanted!r} is not one of auto, {', '.join(ISOLATIONS)}"
        )
    if wanted == "none":
        return "none"
    if wanted != "auto":
        if not works(wanted, program):
            raise ConfigError(
                f"PAGEREADER_OFFICE_ISOLATION={wanted} does not work on this machine",
                hint="set it to auto to take the best isolation that works here",
            )
        return wanted
    for kind in ISOLATIONS[:-1]:
        if works(kind, program):
            return kind
    _warn_unisolated()
    return "none"


@functools.cache
def _warn_unisolated() -> None:
    logger.warning(
        "LibreOffice runs without network isolation here (neither bwrap nor unshare works); "
        "office files are still read from a copy with every outside reference removed"
    )


@functools.cache
def works(kind: str, program: str) -> bool:
    """Whether ``kind`` of isolation can start ``program``'s folder's neighbours here (once a
    process: namespaces are allowed or not for the whole machine)."""
    tool = shutil.which("bwrap" if kind == "bwrap" else "unshare")
    if tool is None:
        return False
    probe = Path("/")
    if kind == "bwrap":
        command = [*_bwrap(program, [probe], "/"), "true"]
    else:
        command = ["unshare", "--user", "--map-root-user", "--net", "true"]
    try:
        done = subprocess.run(command, capture_output=True, timeout=_PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    if done.returncode != 0:
        logger.info("%s isolation unavailable: %s", kind, done.stderr.decode(errors="replace"))
    return done.returncode == 0


def _bwrap(program: str, writable: Sequence[Path], home: str) -> list[str]:
    args = ["bwrap", "--unshare-all", "--die-with-parent", "--new-session"]
    for path in _SYSTEM_PATHS:
        args += ["--ro-bind-try", path, path]
    for path in _SYSTEM_PATHS_TRY:
        args += ["--ro-bind-try", path, path]
    for link in _TOP_LINKS:
        target = Path(link)
        if target.is_symlink():
            args += ["--symlink", os.readlink(target), link]
        elif target.exists():
            args += ["--ro-bind", link, link]
    install = Path(shutil.which(program) or program).resolve().parent
    if not str(install).startswith(("/usr/", "/opt/")):
        args += ["--ro-bind", str(install.parent), str(install.parent)]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for folder in writable:
        if folder != Path("/"):
            args += ["--bind", str(folder), str(folder)]
    return [*args, "--chdir", home]
