"""Page layout: blocks on a page and their reading order."""
