"""The page stages: classify, layout, recognize, verify, assemble; the decision layer."""
