"""Reproducible speed measurements; each module prints one JSON object with --json."""
