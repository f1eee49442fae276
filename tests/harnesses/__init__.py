"""Release- and harness-specific behaviour (Claude Code, Codex, Cursor, Copilot, Qwen) and the plugin bridges."""
