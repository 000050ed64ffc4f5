"""Adapters that put kg-tools retrieval where agent frameworks look for tools (docs/agents.md).

Each module imports its framework at the top and is imported only by the user who has installed that
framework (`pip install 'kg-tools[langgraph]'`, `[pydantic-ai]`, `[llama-index]`, `[openai-agents]`,
`[anthropic]`); nothing in the core imports this package. `calls` holds the framework-free part: how a
retrieved tool is run (a user's Python function by name, or an upstream server through the gateway)."""
