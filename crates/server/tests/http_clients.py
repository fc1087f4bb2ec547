"""Several MCP clients at once against `navmap serve --http`, with the official MCP Python
SDK's streamable HTTP client (PyPI `mcp`; crates/server/tests/http.rs runs this).

Each client opens its own session, lists the tools, waits until every client has done so
(the sessions are open together), then makes the given calls in order. Prints one JSON
line on stdout: {"clients": [{"tools": [...], "answers": [envelope, ...]}, ...]}; the
Rust test checks the answers. With --hold the sessions stay open after that line until a
line arrives on stdin (the test looks at navmap's processes meanwhile). Exits 1 with the
SDK's error on stderr if a client fails.

usage: http_clients.py URL --clients N --calls JSON [--token TOKEN] [--hold]
  JSON: [["tool", {arguments}], ...]
"""

import argparse
import asyncio
import json
import sys

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client


async def one_client(url, calls, headers, all_listed, answered, release):
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = await session.list_tools()
                await all_listed.wait()
                answers = []
                for name, arguments in calls:
                    result = await session.call_tool(name, arguments)
                    answers.append(json.loads(result.content[0].text))
                answered.append({"tools": [t.name for t in tools.tools], "answers": answers})
                await release.wait()


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("url")
    ap.add_argument("--clients", type=int, default=3)
    ap.add_argument("--calls", required=True)
    ap.add_argument("--token")
    ap.add_argument("--hold", action="store_true")
    args = ap.parse_args()
    calls = json.loads(args.calls)
    headers = {"Authorization": f"Bearer {args.token}"} if args.token else None
    all_listed = asyncio.Barrier(args.clients)
    answered, release = [], asyncio.Event()

    async def report():
        while len(answered) < args.clients:
            await asyncio.sleep(0.05)
        print(json.dumps({"clients": answered}), flush=True)
        if args.hold:
            await asyncio.to_thread(sys.stdin.readline)
        release.set()

    sessions = [
        one_client(args.url, calls, headers, all_listed, answered, release)
        for _ in range(args.clients)
    ]
    await asyncio.gather(report(), *sessions)


if __name__ == "__main__":
    asyncio.run(main())
