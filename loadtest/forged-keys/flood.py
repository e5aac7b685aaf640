"""A real client's latency while another address floods the coordinator with forged keys.

    flood.py --url http://127.0.0.1:PORT --key REAL_KEY [--forged 10000] [--threads 16] [--quiet 300]
             [--interval-ms 20] [--flood-nice 19]

The real client (source address 127.0.0.2) makes a GET /v1/jobs?limit=5 request every `--interval-ms`
(50 a second by default, under its key's and its address's limits): first `--quiet` of them with nothing else going on,
then as many as it can while `--threads` connections from 127.0.0.3 send `--forged` requests with
well-formed keys that do not exist. The flood runs in a process of its own: threads of one Python
process share one interpreter lock, and a real client waiting for it would time Python, not the
coordinator.
Prints one JSON line: the real client's p50/p99 in milliseconds, quiet and under the flood, their
ratio, the flood's answers by status, and how long it took. Bounded: the flood stops after its
count or 120 s, whichever comes first.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import secrets
import string
import threading
import time
from urllib.parse import urlparse

ALPHABET = string.ascii_letters + string.digits


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def forged_key(body_length):
    return "rw_club_" + "".join(secrets.choice(ALPHABET) for _ in range(body_length))


def request(connection, path, key):
    connection.request("GET", path, headers={"Authorization": f"Bearer {key}"})
    response = connection.getresponse()
    response.read()
    return response.status


def run_flood(connect, count, threads, body_length, niceness, results):
    """`count` forged requests over `threads` connections from 127.0.0.3 (in a process of its own,
    at `niceness`); puts the answers by status on `results`."""
    os.nice(niceness)
    remaining = [count]
    statuses = {}
    lock = threading.Lock()
    deadline = time.monotonic() + 120

    def flooder():
        connection = connect("127.0.0.3")
        while time.monotonic() < deadline:
            with lock:
                if remaining[0] <= 0:
                    return
                remaining[0] -= 1
            try:
                status = request(connection, "/v1/jobs?limit=5", forged_key(body_length))
            except (http.client.HTTPException, OSError):
                connection.close()
                connection = connect("127.0.0.3")
                status = "error"
            with lock:
                statuses[str(status)] = statuses.get(str(status), 0) + 1

    workers = [threading.Thread(target=flooder) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    results.put(statuses)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--forged", type=int, default=10_000)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--quiet", type=int, default=200)
    parser.add_argument("--interval-ms", type=float, default=20)
    parser.add_argument("--flood-nice", type=int, default=19)
    args = parser.parse_args()
    target = urlparse(args.url)
    body_length = len(args.key) - len("rw_club_")

    def connect(source):
        return http.client.HTTPConnection(target.hostname, target.port, timeout=30, source_address=(source, 0))

    real = connect("127.0.0.2")

    def timed():
        started = time.perf_counter()
        status = request(real, "/v1/jobs?limit=5", args.key)
        if status != 200:
            raise SystemExit(f"the real client got {status}")
        elapsed = time.perf_counter() - started
        time.sleep(max(0.0, args.interval_ms / 1000 - elapsed))
        return elapsed * 1000

    quiet = [timed() for _ in range(args.quiet)]

    results = multiprocessing.Queue()
    flood = multiprocessing.Process(target=run_flood, args=(connect, args.forged, args.threads, body_length, args.flood_nice, results))
    flood_started = time.perf_counter()
    flood.start()
    loaded = []
    while flood.is_alive() and results.empty():
        loaded.append(timed())
    statuses = results.get()
    flood.join()
    flood_seconds = time.perf_counter() - flood_started
    result = {
        "quiet_p50_ms": round(percentile(quiet, 50), 2), "quiet_p99_ms": round(percentile(quiet, 99), 2),
        "flood_p50_ms": round(percentile(loaded, 50), 2), "flood_p99_ms": round(percentile(loaded, 99), 2),
        "real_requests_during_flood": len(loaded), "flood_nice": args.flood_nice, "flood_seconds": round(flood_seconds, 2), "flood_statuses": statuses,
    }
    result["p99_ratio"] = round(result["flood_p99_ms"] / result["quiet_p99_ms"], 2)
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
