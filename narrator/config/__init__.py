"""Packaged default settings (default.yaml)."""
