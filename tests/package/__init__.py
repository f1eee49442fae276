"""The package as shipped: layering, public API, typing, metadata, release, name clash."""
