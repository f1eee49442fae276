"""Layer 0, base: what every layer shares and that knows nothing of hooks: the
exception classes, diagnostics with their stable codes, and lazy name loading."""
