"""``python -m pagereader``."""

from pagereader.cli.app import main

main()
