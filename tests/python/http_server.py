"""An MCP server over streamable HTTP, written with the official Python MCP SDK, for
tests/mcp_servers.rs: `python http_server.py PORT` serves http://127.0.0.1:PORT/mcp.

- echo_capabilities (read-only): the renderer capabilities the client declared in initialize
  (capabilities.experimental.a2ui) and in the call's _meta (a2ui).
- word_count (read-only): the words of a text, as JSON text.
- forget (destructive): answers what it would have forgotten.
- big_result (read-only): a text block of SIZE megabytes.
- many_blocks (read-only): COUNT text blocks.
"""

import json
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

READ_ONLY = ToolAnnotations(readOnlyHint=True)

mcp = MCPServer("python-http", log_level="WARNING")


@mcp.tool(annotations=READ_ONLY)
def echo_capabilities(ctx: Context) -> str:
    """The renderer capabilities the client declared."""
    params = ctx.session.client_params
    capabilities = params.capabilities.model_dump(mode="json", by_alias=True, exclude_none=True)
    meta = ctx.request_context.meta or {}
    if not isinstance(meta, dict):
        meta = meta.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(
        {
            "initialize": capabilities.get("experimental", {}).get("a2ui"),
            "call": meta.get("a2ui"),
            "client": params.client_info.name,
        }
    )


@mcp.tool(annotations=READ_ONLY)
def word_count(text: str) -> str:
    """The words of a text."""
    words = text.split()
    return json.dumps({"count": len(words), "words": words})


@mcp.tool(annotations=ToolAnnotations(destructiveHint=True))
def forget(name: str) -> str:
    """Forgets a name (destructive)."""
    return f"forgot {name}"


@mcp.tool(annotations=READ_ONLY)
def big_result(size: int) -> str:
    """A text of SIZE megabytes."""
    return "x" * (size << 20)


@mcp.tool(annotations=READ_ONLY)
def many_blocks(count: int) -> CallToolResult:
    """COUNT text blocks."""
    return CallToolResult(content=[TextContent(type="text", text=f"{i}") for i in range(count)])


if __name__ == "__main__":
    mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
