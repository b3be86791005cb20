"""The document service: uploads, jobs, results, the review workspace, metrics."""
