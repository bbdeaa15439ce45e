"""An MCP server over stdio that misbehaves on purpose, for tests/mcp_servers.rs. Plain Python,
no SDK: it speaks just enough JSON-RPC to be connected to, then does what MODE says.

    python misbehaving_server.py MODE [TOOL…]

MODE, on tools/call:
- exit: writes a line to stderr and exits with status 3 (a crash mid-call);
- hang: never answers;
- invalid: answers with a line that is JSON but not JSON-RPC (no result, no error);
- garbage: writes a line that is not JSON at all, then never answers;
- big: answers with a 50 MB text block;
- many: answers with 100 000 text blocks;
- ok: answers "ok from MODE TOOL…".
MODE on start:
- fail: writes a reason to stderr and exits with status 2 before reading anything;
- duplicate: lists its first tool twice.

Its tools are the TOOL arguments (default: "poke"), read-only.
"""

import json
import sys

MODE = sys.argv[1]
TOOLS = sys.argv[2:] or ["poke"]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(id, content):
    send({"jsonrpc": "2.0", "id": id, "result": {"content": content}})


def tool(name):
    return {
        "name": name,
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": True},
    }


if MODE == "fail":
    sys.stderr.write("misbehaving_server: cannot open the database\n")
    sys.exit(2)

for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    method, id = request.get("method"), request.get("id")
    if id is None:
        continue
    if method == "initialize":
        send(
            {
                "jsonrpc": "2.0",
                "id": id,
                "result": {
                    "protocolVersion": request["params"]["protocolVersion"],
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "misbehaving-" + MODE, "version": "0"},
                },
            }
        )
    elif method == "tools/list":
        tools = [tool(name) for name in TOOLS]
        if MODE == "duplicate":
            tools.append(tool(TOOLS[0]))
        send({"jsonrpc": "2.0", "id": id, "result": {"tools": tools}})
    elif method == "tools/call":
        if MODE == "exit":
            sys.stderr.write("misbehaving_server: crashed in the middle of a call\n")
            sys.stderr.flush()
            sys.exit(3)
        elif MODE == "hang":
            continue
        elif MODE == "invalid":
            send({"jsonrpc": "2.0", "id": id, "outcome": "neither result nor error"})
        elif MODE == "garbage":
            sys.stdout.write("this is not JSON\n")
            sys.stdout.flush()
        elif MODE == "big":
            result(id, [{"type": "text", "text": "x" * (50 << 20)}])
        elif MODE == "many":
            result(id, [{"type": "text", "text": str(i)} for i in range(100_000)])
        else:
            result(id, [{"type": "text", "text": "ok from " + " ".join(sys.argv[1:])}])
    else:
        send({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no " + method}})
