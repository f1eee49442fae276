"""The package version (one place: the public package and the CLI read it here)."""

VERSION = "0.1.0"
