"""Answer latency of `skill-audit mcp` (docs/performance.md, "The MCP server").

    python bench/mcp_latency.py SKILL_AUDIT LIBRARY [--profile P] [--calls 1000]

Starts `SKILL_AUDIT mcp LIBRARY [-p P]` over stdio with the official Python SDK's client (`pip
install mcp`), waits for the first answer (the audit at start), then times CALLS calls of
`check_skill` and of `available_skills`, each judged against a caller's tool list (so each call
evaluates against a profile built for it, the expensive path), one after another: the time from
sending the request to reading the answer, as the client sees it. Prints the median and p99 of
each, the time to the first answer, and the server's resident memory (VmRSS from /proc, Linux)
after the calls.

The skill asked about is the first one `available_skills` lists with `include_unavailable`.
"""

import argparse
import asyncio
import os
import statistics
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

# A session's tools as an agent would pass them: a host's own tools and a few MCP servers.
TOOLS = ["read", "edit", "search", "runCommands", "fetch", "get_order", "search_messages"]
SERVERS = ["github", "kusto"]


def server_rss_kib(marker):
    """VmRSS of this process's child whose command line holds `marker`."""
    me = os.getpid()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
            if ppid != me or marker not in cmdline:
                continue
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return None


def percentile(samples, p):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def timed(session, tool, args, calls):
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        result = await session.call_tool(tool, args)
        samples.append((time.perf_counter() - start) * 1000)
        if result.is_error:
            raise SystemExit(f"{tool} failed: {result.content}")
    return samples


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("skill_audit")
    ap.add_argument("library")
    ap.add_argument("--profile")
    ap.add_argument("--calls", type=int, default=1000)
    a = ap.parse_args()
    args = ["mcp", a.library] + (["-p", a.profile] if a.profile else [])
    params = StdioServerParameters(command=a.skill_audit, args=args)
    started = time.perf_counter()
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            env = {"tools": TOOLS, "servers": SERVERS}
            first = await s.call_tool("available_skills", {**env, "include_unavailable": True})
            ready = time.perf_counter() - started
            skills = first.structured_content["skills"]
            name = skills[0]["name"]
            check = await timed(s, "check_skill", {"name": name, **env}, a.calls)
            available = await timed(s, "available_skills", env, a.calls)
            rss = server_rss_kib(b"mcp")
    print(f"library        {a.library} ({len(skills)} skills)")
    print(f"first answer   {ready:.2f} s (the audit at start included)")
    for tool, samples in [("check_skill", check), ("available_skills", available)]:
        print(
            f"{tool:<16} median {statistics.median(samples):.2f} ms, "
            f"p99 {percentile(samples, 99):.2f} ms over {len(samples)} calls"
        )
    print(f"server RSS     {rss / 1024:.1f} MiB" if rss else "server RSS     unknown")


asyncio.run(main())
