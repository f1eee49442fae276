"""The configuration loaders, one file per harness's hook files, and merging, detection and JSON with comments."""
