"""The manual, the built documentation site and the examples."""
