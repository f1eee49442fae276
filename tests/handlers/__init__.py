"""The handler kinds: command (and its process runner), http, mcp_tool, model, python references, built-ins."""
