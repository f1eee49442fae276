"""The dispatch graph through the public API: registration, matching, execution, reduction, observers, logs."""
