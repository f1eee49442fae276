"""Layer 6, bridges: the hook graph inside agent frameworks (LangChain/LangGraph,
PydanticAI, the OpenAI Agents SDK, Google ADK, Strands, Semantic Kernel, Agno,
Haystack, AutoGen, Microsoft Agent Framework, CrewAI).

:mod:`._run` is what every adapter shares: one agent_hooks session per framework
run, the lifecycle helpers of :mod:`agent_hooks._dispatch._lifecycle` called in the
framework's hooks, tool names mapped onto the canonical vocabulary. Each framework
has one private module here (imported only by its public face,
``agent_hooks.<framework>``), and each imports its framework lazily or only when
the user imports that public module, so the package imports without any of them.
"""
