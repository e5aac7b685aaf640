#!/usr/bin/env python3
"""Holds N connections to a coordinator (stdlib asyncio only) and measures what they cost it.

  clients.py --url http://127.0.0.1:PORT --key KEY --pid COORDINATOR_PID --clients 500 --jobs 20 --video ID

First N idle keep-alive connections that each made one GET /healthz (the yardstick: what a plain
open connection costs the server), then N GET /v1/events streams while --jobs no-op jobs run; each
stream must receive every job's job.succeeded event. Prints the coordinator's resident memory
(VmRSS, from /proc) before, with the idle connections, and with the streams after the events.
"""
import argparse
import asyncio
import json
import sys
import time
import urllib.request
from urllib.parse import urlparse


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def idle_connection(host, port, ready):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    length = next((int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
    await reader.readexactly(length)
    ready.append(1)
    return reader, writer


async def stream(host, port, key, wanted, counts, index, opened):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /v1/events HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n")[0]:
        raise RuntimeError(f"stream {index}: {head[:200]!r}")
    opened.append(1)
    while counts[index] < wanted:
        line = await reader.readline()
        if not line:
            raise RuntimeError(f"stream {index} ended after {counts[index]} events")
        if line.startswith(b"event: job.succeeded"):
            counts[index] += 1
    writer.close()


def create_jobs(url, key, video, jobs):
    # A run of its own in the options: each run's jobs are new jobs, never a repeat of an earlier run's.
    run = time.time_ns()
    for tag in range(jobs):
        body = json.dumps({"videoId": video, "sport": "tennis", "options": {"noop": {"seconds": 0.05}, "tag": tag, "run": run}}).encode()
        request = urllib.request.Request(url + "/v1/jobs", data=body, method="POST",
                                         headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=30).read()


async def main():
    parser = argparse.ArgumentParser()
    for name in ("--url", "--key", "--video"):
        parser.add_argument(name, required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=20)
    a = parser.parse_args()
    target = urlparse(a.url)
    host, port = target.hostname, target.port

    before = rss_kib(a.pid)
    ready = []
    idle = await asyncio.gather(*(idle_connection(host, port, ready) for _ in range(a.clients)))
    await asyncio.sleep(1)
    with_idle = rss_kib(a.pid)
    for _, writer in idle:
        writer.close()
    await asyncio.sleep(1)

    counts = [0] * a.clients
    opened = []
    started = time.monotonic()
    tasks = [asyncio.create_task(stream(host, port, a.key, a.jobs, counts, i, opened)) for i in range(a.clients)]
    while len(opened) < a.clients:
        if any(t.done() and t.exception() for t in tasks):
            break
        await asyncio.sleep(0.05)
    connected = rss_kib(a.pid)
    await asyncio.get_running_loop().run_in_executor(None, create_jobs, a.url, a.key, a.video, a.jobs)
    peak = connected
    deadline = time.monotonic() + 120
    while not all(t.done() for t in tasks):
        if time.monotonic() > deadline:
            sys.exit(f"after 120 s only {sum(counts)} of {a.clients * a.jobs} job.succeeded events had arrived")
        peak = max(peak, rss_kib(a.pid))
        await asyncio.sleep(0.1)
    for t in tasks:
        if t.exception():
            raise t.exception()
    took = time.monotonic() - started
    delivered = sum(counts)
    print(f"clients={a.clients} jobs={a.jobs} delivered={delivered} expected={a.clients * a.jobs} seconds={took:.1f}")
    print(f"rss_before_mib={before / 1024:.1f} rss_idle_mib={with_idle / 1024:.1f} rss_streams_connected_mib={connected / 1024:.1f} "
          f"rss_streams_peak_mib={peak / 1024:.1f}")
    print(f"idle_delta_mib={(with_idle - before) / 1024:.1f} streams_delta_mib={(peak - before) / 1024:.1f}")
    if delivered != a.clients * a.jobs:
        sys.exit("not every stream received every job's event")


asyncio.run(main())
