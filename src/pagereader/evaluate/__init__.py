"""Evaluation and timing: scoring against ground truth, synthetic sets, reports, the page budget."""
