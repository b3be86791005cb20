"""The exception tree. Third-party exceptions are translated where they enter.

    PagereaderError
    ├── InputError                 the file itself is the problem (user can fix the input)
    │   ├── UnsupportedFormatError     extension or content not handled
    │   ├── CorruptFileError           unreadable, truncated, zero bytes
    │   ├── PasswordRequiredError      encrypted PDF, no or wrong password
    │   ├── ImageTooLargeError         decompression-bomb guard (pixels)
    │   └── InflatesTooLargeError      decompression-bomb guard (PDF streams, office parts)
    ├── DependencyError            a system tool is missing (LibreOffice, Tesseract)
    ├── EngineError                an engine failed on a block
    │   ├── EngineUnavailableError     endpoint down or circuit open
    │   └── EngineRefusedError         the server refuses every request of this kind
    ├── DeadlineExceededError      a page ran past its deadline
    ├── OutputError                an output folder cannot be written (read-only, disk full)
    └── ConfigError                options or config file invalid

Every error carries the file and page it concerns and a hint saying what to do, so that the
CLI can print one clear line and the output can keep it as an ErrorItem.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the tree itself needs no pydantic: `pagereader --help` stays light
    from pagereader.types import AttemptCause, ErrorItem


class PagereaderError(Exception):
    """Root of pagereader's errors."""

    stage = "parse"
    default_hint = ""

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        page: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.file = str(file) if file is not None else ""
        if self.file and message.startswith(f"{self.file}: "):
            message = message[len(self.file) + 2 :]  # the file is named once, by its field
        super().__init__(message)
        self.message = message
        self.page = page
        self.hint = hint if hint is not None else self.default_hint

    def __str__(self) -> str:
        return self.to_item().line() if self.file else self.message

    def to_item(self, stage: str | None = None) -> ErrorItem:
        """The error as it is kept in document.json."""
        from pagereader.types import ErrorItem

        return ErrorItem(
            file=self.file,
            page=self.page,
            stage=stage or self.stage,
            message=self.message,
            hint=self.hint,
        )


class InputError(PagereaderError):
    """The input file cannot be read as given."""

    stage = "ingest"


class UnsupportedFormatError(InputError):
    """Raised with the list of supported types as its hint (sources.supported_types)."""


class CorruptFileError(InputError):
    default_hint = "check that the file is complete and opens in a viewer"


class PasswordRequiredError(InputError):
    default_hint = "pass the password with --password"


class ImageTooLargeError(InputError):
    default_hint = (
        "downscale the image, or raise render.max_image_pixels in the config "
        "(or PAGEREADER_MAX_IMAGE_PIXELS)"
    )


class InflatesTooLargeError(InputError):
    default_hint = (
        "if the file is trusted, raise the limit named ([limits] in the config, or "
        "PAGEREADER_MAX_INFLATED_MB / PAGEREADER_MAX_DOCUMENT_INFLATED_MB)"
    )


class TooManyPagesError(InputError):
    """A document longer than ``limits.max_pages``."""

    default_hint = "split the document, or raise limits.max_pages (serve: --max-pages)"


class DependencyError(PagereaderError):
    """A system tool pagereader needs for this input is not installed."""

    stage = "ingest"


class EngineError(PagereaderError):
    """An engine failed to answer a request.

    ``cause`` says what kind of failure it was (see ``types.AttemptCause``) and ``status`` the
    HTTP status a server answered, so that the output can count failures by kind."""

    stage = "recognize"

    def __init__(
        self,
        message: str,
        *,
        file: str | Path | None = None,
        page: int | None = None,
        hint: str | None = None,
        cause: AttemptCause = "engine",
        status: int | None = None,
    ) -> None:
        super().__init__(message, file=file, page=page, hint=hint)
        self.cause: AttemptCause = cause
        self.status = status


class EngineUnavailableError(EngineError):
    """The engine's endpoint is down or its circuit breaker is open."""


class EngineRefusedError(EngineError):
    """The server refuses every request of this kind (a flag it was started without, a model
    it does not serve, a key it does not accept): retrying cannot help until it is fixed."""


class DeadlineExceededError(PagereaderError):
    """A page ran past its deadline."""

    stage = "recognize"


class OutputError(PagereaderError):
    """An output file cannot be written: the folder is read-only, missing or the disk full."""

    stage = "write"
    default_hint = "make the folder writable or free disk space, or choose another with --out"


class ConfigError(PagereaderError):
    """Options or a config file are invalid. No default hint: a pointer to the configuration
    docs is added where options are read (cli/messages.py), not to every ConfigError."""

    stage = "config"


def install_line(extra: str) -> str:
    """The one command that adds an extra, as every message and page of the docs writes it:
    from pagereader's repository root, with the tested versions (a name on an index would be
    another package or none)."""
    return f'pip install -e ".[{extra}]" -c constraints.txt (from pagereader\'s repository root)'
