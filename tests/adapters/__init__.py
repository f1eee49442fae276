"""The framework adapters (LangChain, OpenAI Agents, PydanticAI, ...), the Claude Agent SDK adapter and agent_hooks.testing."""
