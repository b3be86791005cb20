"""Page reuse: the resume cache, page digests and the cross-document page store."""
