"""Layer 6, bridges: a hook graph behind the wire. The payload bridge (one JSON
payload in, one answer out, in the caller's dialect), the HTTP hook server and the
``agent-hooks`` command line. The Claude Agent SDK adapter is the public module
:mod:`agent_hooks.claude_agent_sdk`."""
