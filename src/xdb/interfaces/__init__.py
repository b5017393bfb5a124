"""The skins over ``Database``: HTTP, MCP and the command line, all generated from the registry."""
