"""The demo MCP server of examples/mcp_chains, written with the official Python MCP SDK.

The same tools and data as the Rust servers of the example (examples/mcp_chains/server.rs), in
one server: list_issues (JSON text), tavily-search (plain-text records), issue_stats
(structured content), show_issue_board (an A2UI resource linked by the tool's _meta.ui, and the
board's data embedded in the result; it reads the renderer's catalogs from the call's _meta) and
open_dashboard (an MCP App resource). tests/python_interop.rs runs it over stdio.

mcp 2 renamed FastMCP to MCPServer; this is the same high-level server API.
"""

import json

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import (
    Annotations,
    CallToolResult,
    EmbeddedResource,
    TextContent,
    TextResourceContents,
)
from pydantic import BaseModel

REPOSITORY = "a2ui/a2ui"
BOARD_URI = "a2ui://issue-board"
DASHBOARD_URI = "ui://issue-dashboard"
A2UI_MIME_TYPE = "application/a2ui+json"
MCP_APP_MIME_TYPE = "text/html;profile=mcp-app"
VERSION = "v1.0"
BASIC_CATALOG = "https://a2ui.org/specification/v1_0/basic_catalog.json"

ISSUES = [
    {"number": 12, "title": "Render McpApp in native hosts", "state": "open"},
    {"number": 9, "title": "Cache UI resources by URI", "state": "closed"},
    {"number": 7, "title": "Real MCP end to end", "state": "open"},
]

PAGES = [
    (
        "A2UI: Agent-to-User Interface",
        "https://a2ui.org/",
        "A protocol for agents to describe user interfaces as JSON.",
    ),
    (
        "Model Context Protocol",
        "https://modelcontextprotocol.io/",
        "An open protocol that connects AI applications to tools and data.",
    ),
    (
        "Call MCP Tools from A2UI",
        "https://a2ui.org/guides/mcp-tools/",
        "Surfaces call MCP tools without a round-trip to the agent.",
    ),
]

DASHBOARD_HTML = (
    "<!doctype html>\n<html><head><title>Issues</title></head>\n"
    '<body><h1>Issue dashboard</h1><div id="chart"></div></body></html>\n'
)

mcp = MCPServer("demo-python", log_level="WARNING")


def checked(repository: str) -> list[dict]:
    if repository != REPOSITORY:
        raise ToolError(f"unknown repository '{repository}'")
    return [issue for issue in ISSUES if issue["state"] == "open"]


@mcp.tool(name="list_issues", description="Lists a repository's issues as JSON text.", structured_output=False)
def list_issues(repository: str) -> str:
    checked(repository)
    return json.dumps(ISSUES)


@mcp.tool(
    name="tavily-search",
    description="Searches the web; returns Title/URL/Content records as text.",
    structured_output=False,
)
def tavily_search(query: str) -> str:
    blocks = [f'Detailed Results for "{query}":']
    blocks += [f"Title: {title}\nURL: {url}\nContent: {content}" for title, url, content in PAGES]
    return "\n\n".join(blocks)


class IssueStats(BaseModel):
    repository: str
    open: int
    closed: int
    total: int


@mcp.tool(name="issue_stats", description="Counts a repository's issues (structured content).")
def issue_stats(repository: str) -> IssueStats:
    # A model as the return type: the SDK sends it as structuredContent, and as JSON text.
    open_issues = checked(repository)
    return IssueStats(
        repository=repository,
        open=len(open_issues),
        closed=len(ISSUES) - len(open_issues),
        total=len(ISSUES),
    )


def renderer_catalogs(ctx: Context) -> list:
    """The catalogs the renderer declared in the call's _meta (a2ui.clientCapabilities)."""
    meta = ctx.request_context.meta or {}
    capabilities = (meta.get("a2ui") or {}).get("clientCapabilities") or {}
    for version in (VERSION, VERSION.removeprefix("v")):
        if isinstance(capabilities.get(version), dict):
            return capabilities[version].get("supportedCatalogIds", [])
    return []


@mcp.tool(
    name="show_issue_board",
    description="Shows the open issues on an A2UI board.",
    meta={"ui": {"resourceUri": BOARD_URI, "mimeType": A2UI_MIME_TYPE}},
)
def show_issue_board(repository: str, ctx: Context) -> CallToolResult:
    open_issues = checked(repository)
    data = {
        "version": VERSION,
        "updateDataModel": {
            "surfaceId": "issues",
            "path": "/board",
            "value": {
                "title": f"{repository}: {len(open_issues)} open issues",
                "summary": " · ".join(f"#{i['number']} {i['title']}" for i in open_issues),
                "rendererCatalogs": renderer_catalogs(ctx),
            },
        },
    }
    return CallToolResult(
        content=[
            TextContent(type="text", text=f"{len(open_issues)} open issues in {repository}"),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(
                    uri="a2ui://issue-board/data",
                    mime_type=A2UI_MIME_TYPE,
                    text=json.dumps([data], ensure_ascii=False),
                ),
                annotations=Annotations(audience=["user"]),
            ),
        ]
    )


@mcp.tool(
    name="open_dashboard",
    description="Opens the issue dashboard (an MCP App).",
    meta={"ui": {"resourceUri": DASHBOARD_URI}},
    structured_output=False,
)
def open_dashboard(repository: str) -> str:
    checked(repository)
    return f"Opened the issue dashboard for {repository}"


@mcp.resource(BOARD_URI, name="Issue board", description="The issue board's layout.", mime_type=A2UI_MIME_TYPE)
def issue_board() -> str:
    layout = [
        {"version": VERSION, "createSurface": {"surfaceId": "issues", "catalogId": BASIC_CATALOG}},
        {
            "version": VERSION,
            "updateComponents": {
                "surfaceId": "issues",
                "components": [
                    {"id": "root", "component": "Column", "children": ["title", "summary"]},
                    {"id": "title", "component": "Text", "variant": "h2", "text": {"@path": "/board/title"}},
                    {"id": "summary", "component": "Text", "text": {"@path": "/board/summary"}},
                ],
            },
        },
    ]
    return json.dumps(layout)


@mcp.resource(
    DASHBOARD_URI,
    name="Issue dashboard",
    mime_type=MCP_APP_MIME_TYPE,
    meta={"ui": {"csp": {"resourceDomains": ["https://cdn.example.com"]}}},
)
def issue_dashboard() -> str:
    return DASHBOARD_HTML


if __name__ == "__main__":
    mcp.run("stdio")
