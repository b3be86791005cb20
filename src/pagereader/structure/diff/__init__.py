"""Two versions of a statute or contract compared: articles paired by number, then by text
for renumbered ones (align.py); each pair's words compared with the critical tokens that
changed (words.py), in memory and time that caps bound (runs.py); a document without articles
compared as running text (passages.py); the
whole assembled, critical changes first (compare.py) and written as diff.md and diff.json
(report.py) in the types of model.py."""

from pagereader.structure.diff.compare import diff_documents
from pagereader.structure.diff.diff_report import diff_json_text, diff_markdown
from pagereader.structure.diff.model import VersionDiff
from pagereader.structure.diff.words import diff_patterns

__all__ = ["VersionDiff", "diff_documents", "diff_json_text", "diff_markdown", "diff_patterns"]
