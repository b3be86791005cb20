"""``python -m pagereader``."""

from pagereader.cli.main import main

main()
