"""Hostile hooks, payloads and clients, limits, workspace trust and failing closed."""
