"""The test suite, grouped by concern (see tests/README.md); the helper modules beside
this file are imported as ``tests.<helper>`` from every folder."""
