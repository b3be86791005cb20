"""A document's output folder: the registry of its files (registry.py) and the one writer that
writes them all, as one unit, from the finished document (writer.py). Parse, the batch merge
and a reviewer's corrections all write through it."""
