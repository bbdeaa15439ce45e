"""An MCP server that returns an A2UI surface and takes its actions back, written with the
official Python MCP SDK, for tests/render_session.rs (A2UI over MCP both ways, over stdio).

- show_counter (read-only): an embedded application/a2ui+json resource that creates the surface
  "counter": a Text bound to /count and a Button whose event action "increment" carries the
  count in its context.
- a2ui_action: the renderer's action (every field, as the A2UI-over-MCP guide's tool takes it);
  answers with an embedded resource whose updateDataModel sets /count to the count plus one
  and /last to the action's name and source component.
- a2ui_error: the renderer's error; answers with what it received.
"""

import json

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, EmbeddedResource, TextContent, TextResourceContents, ToolAnnotations

A2UI_MIME_TYPE = "application/a2ui+json"
VERSION = "v1.0"
BASIC_CATALOG = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"

mcp = MCPServer("a2ui-counter", log_level="WARNING")


def a2ui(messages: list, text: str) -> CallToolResult:
    return CallToolResult(
        content=[
            TextContent(type="text", text=text),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri="a2ui://counter", mime_type=A2UI_MIME_TYPE, text=json.dumps(messages)
                ),
            ),
        ]
    )


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def show_counter(start: int = 0) -> CallToolResult:
    """Shows a counter surface."""
    return a2ui(
        [
            {
                "version": VERSION,
                "createSurface": {
                    "surfaceId": "counter",
                    "catalogId": BASIC_CATALOG,
                    "dataModel": {"count": start},
                    "components": [
                        {"id": "root", "component": "Column", "children": ["value", "button"]},
                        {"id": "value", "component": "Text", "text": {"@path": "/count"}},
                        {
                            "id": "button",
                            "component": "Button",
                            "child": "label",
                            "action": {"event": {"name": "increment", "context": {"count": {"@path": "/count"}}}},
                        },
                        {"id": "label", "component": "Text", "text": "+1"},
                    ],
                },
            }
        ],
        "counter shown",
    )


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def a2ui_action(name: str, surfaceId: str, sourceComponentId: str, timestamp: str, context: dict) -> CallToolResult:
    """Receives an action a user took on an A2UI surface."""
    count = context.get("count", 0)
    update = {
        "version": VERSION,
        "updateDataModel": {"surfaceId": surfaceId, "path": "/", "value": {
            "count": count + 1, "last": f"{name} from {sourceComponentId}"}},
    }
    return a2ui([update], f"{name} received")


@mcp.tool(annotations=ToolAnnotations(readOnlyHint=True))
def a2ui_error(code: str, message: str, surfaceId: str, path: str = "") -> str:
    """Receives an error a renderer met while processing A2UI messages."""
    return json.dumps({"code": code, "surfaceId": surfaceId, "path": path})


if __name__ == "__main__":
    mcp.run("stdio")
