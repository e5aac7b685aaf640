#!/usr/bin/env python3
"""A TCP forwarder that adds a fixed delay to each direction: the multi-host test's stand-in for
`tc qdisc ... netem delay`, which this kernel does not have (no sch_netem, no modules to load).

    delay_proxy.py --delay-ms 20 --map 10.231.7.2:5432=127.0.0.1:41234 --map 10.231.7.2:6379=127.0.0.1:41235

Each --map listens on LISTEN and forwards every connection to TARGET. Bytes read in one direction
are written on after DELAY has passed since they were read, in order, so a request and its answer
each take DELAY longer (a round trip 2 x DELAY), as netem on both ends of a link would. Reading
stops while 256 chunks wait in one direction (the sender then feels TCP back-pressure). A half
close is passed on after the delay too. Stdlib only; prints "ready" on stdout once it listens;
SIGTERM or SIGINT ends it.
"""
import argparse
import asyncio
import signal
import sys

CHUNK = 65536
QUEUED_CHUNKS = 256


async def pump(reader, writer, delay, loop):
    """Copies reader to writer, each chunk `delay` seconds after it was read."""
    queue = asyncio.Queue(maxsize=QUEUED_CHUNKS)

    async def read_side():
        try:
            while True:
                data = await reader.read(CHUNK)
                await queue.put((loop.time() + delay, data))
                if not data:
                    return
        except (ConnectionError, OSError):
            await queue.put((loop.time() + delay, None))

    async def write_side():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                raise ConnectionResetError("the other side failed")
            if not data:
                if writer.can_write_eof():
                    writer.write_eof()
                return
            writer.write(data)
            await writer.drain()

    reading = asyncio.ensure_future(read_side())
    try:
        await write_side()
    finally:
        reading.cancel()


async def serve_one(client_reader, client_writer, target, delay):
    try:
        await forward(client_reader, client_writer, target, delay)
    except asyncio.CancelledError:
        pass  # the proxy is stopping


async def forward(client_reader, client_writer, target, delay):
    loop = asyncio.get_running_loop()
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection(*target)
    except OSError:
        client_writer.close()
        return
    tasks = [asyncio.ensure_future(pump(client_reader, upstream_writer, delay, loop)),
             asyncio.ensure_future(pump(upstream_reader, client_writer, delay, loop))]
    try:
        # Both directions until both ended; a failure in either ends the connection.
        pending = set(tasks)
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if any(t.exception() for t in done if not t.cancelled()):
                break
    finally:
        for task in tasks:
            task.cancel()
        for w in (client_writer, upstream_writer):
            w.close()


def host_port(text):
    host, _, port = text.rpartition(":")
    if not host or not port.isdigit():
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host, int(port)


def mapping(text):
    listen, sep, target = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected LISTEN=TARGET, got {text!r}")
    return host_port(listen), host_port(target)


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--delay-ms", type=float, required=True, help="added to each direction")
    parser.add_argument("--map", type=mapping, action="append", required=True, metavar="LISTEN=TARGET")
    args = parser.parse_args()
    delay = args.delay_ms / 1000
    servers = []
    for listen, target in args.map:
        handler = (lambda t: lambda r, w: serve_one(r, w, t, delay))(target)
        servers.append(await asyncio.start_server(handler, *listen, reuse_address=True))
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print("ready", flush=True)
    await stop.wait()
    for server in servers:
        server.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except OSError as error:
        print(f"delay_proxy: {error}", file=sys.stderr)
        sys.exit(1)
