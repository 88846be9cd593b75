"""Exports and their publishing: writing a hub-ready folder (``export``), when an export may be
kept (``export_key``), the split auditor (``audit``), golden content fingerprints per version
(``versioning``) and the Hub (``hub``: push, pull, pinned loading)."""
