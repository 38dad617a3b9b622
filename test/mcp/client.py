"""An MCP client this project did not write (the Python SDK, PyPI's `mcp`) driving offsettui.

Usage: client.py SPEC.json. The spec names the server, either {"command": [...], "env": {...}}
(stdio: the client starts it) or {"url": "http://host:port/mcp"} (streamable HTTP), and the
calls {"tool": ..., "arguments": {...}} to make in order. It prints one JSON document: the
tools listed and, per call, isError, the text content and the structured content.
"""

import asyncio
import contextlib
import json
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client


async def main(spec):
    async with contextlib.AsyncExitStack() as stack:
        if "url" in spec:
            streams = await stack.enter_async_context(streamable_http_client(spec["url"]))
        else:
            params = StdioServerParameters(command=spec["command"][0], args=spec["command"][1:], env=spec.get("env"))
            streams = await stack.enter_async_context(stdio_client(params))
        session = await stack.enter_async_context(ClientSession(streams[0], streams[1]))
        await session.initialize()
        listed = (await session.list_tools()).model_dump(by_alias=True, mode="json")
        out = {"tools": [{"name": t["name"], "readOnly": bool((t.get("annotations") or {}).get("readOnlyHint")),
                          "arguments": sorted((t.get("inputSchema") or {}).get("properties", {}))} for t in listed["tools"]],
               "calls": []}
        for call in spec["calls"]:
            res = (await session.call_tool(call["tool"], call["arguments"])).model_dump(by_alias=True, mode="json")
            out["calls"].append({
                "tool": call["tool"],
                "arguments": call["arguments"],
                "isError": bool(res.get("isError")),
                "text": [c["text"] for c in res.get("content", []) if c.get("type") == "text"],
                "structured": res.get("structuredContent"),
            })
        return out


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        result = asyncio.run(main(json.load(f)))
    json.dump(result, sys.stdout)
