"""Celery's no-op throughput on a given Redis: the yardstick for the queue benchmark (issue 12).

    python noop_bench.py --redis-url redis://127.0.0.1:PORT/1 --jobs N --workers W [--pool prefork|threads]

Starts one `celery worker` node with a pool of W (prefork: W child processes, Celery's default
pool; threads: W threads in one process), waits until it answers a ping and has run one untimed
warm-up chunk, then times N no-op tasks from the first enqueue to the last result stored, and
prints one line:

    celery jobs=N workers=W pool=prefork seconds=S jobs_per_s=R enqueue_seconds=E cpu_ms_per_job=C

The worker is stopped by its PID on exit, also after a failure, Ctrl-C or SIGTERM. This file is
also the Celery app the worker imports (`celery -A noop_bench`, URL from CELERY_BENCH_REDIS_URL).

Configuration, chosen to be fair to Celery (a higher bar for us, never a lower one):
- broker and result backend on the same Redis, every key under the prefix `celerybench:` (give
  it a db of its own too, e.g. /1), so it never touches other data; those keys are removed
  before and after each run;
- task_acks_late: our workers acknowledge a job after it completes, so Celery does too (the
  message stays in the transport's unacked set until the task has run and stored its result);
- results are stored (Celery's SUCCESS state in Redis, the counterpart of our job's result and
  state in PostgreSQL); otherwise Celery's defaults: prefetch multiplier 4, json, and the fair
  scheduling of `-O fair`, which is what the prefork pool does by default since Celery 4
  (`-O default` maps to the fair strategy), so the flag is not passed;
- gossip, mingle and heartbeats are off: chatter between worker nodes (there is one) that only
  slows the start.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import time

from celery import Celery

PREFIX = "celerybench:"
QUEUE = "celerybench"
CHUNK = 500  # tasks per enqueue round trip: the batches of 500 of our batch mode

app = Celery("noop_bench")
app.conf.update(
    broker_url=os.environ.get("CELERY_BENCH_REDIS_URL", "redis://127.0.0.1:6379/1"),
    result_backend=os.environ.get("CELERY_BENCH_REDIS_URL", "redis://127.0.0.1:6379/1"),
    broker_transport_options={"global_keyprefix": PREFIX},
    result_backend_transport_options={"global_keyprefix": PREFIX},
    task_default_queue=QUEUE,
    task_acks_late=True,
    result_expires=3600,
    broker_connection_retry_on_startup=True,
)


@app.task(name="noop")
def noop():
    return None


def delete_our_keys(client):
    """Removes every key under PREFIX (queue, unacked set, results) and nothing else."""
    batch = []
    for key in client.scan_iter(match=PREFIX + "*", count=1000):
        batch.append(key)
        if len(batch) == 1000:
            client.delete(*batch)
            batch = []
    if batch:
        client.delete(*batch)


def start_worker(args):
    cmd = [sys.executable, "-m", "celery", "-A", "noop_bench", "worker",
           "--pool", args.pool, "--concurrency", str(args.workers), "--queues", QUEUE,
           "--hostname", f"bench{os.getpid()}@%h", "--loglevel", "WARNING",
           "--without-gossip", "--without-mingle", "--without-heartbeat"]
    # Its banner and the warning about running as root go to the log, not into our output.
    with open(args.log, "ab") as log:
        return subprocess.Popen(cmd, cwd=os.path.dirname(os.path.abspath(__file__)),
                                env=dict(os.environ, CELERY_BENCH_REDIS_URL=args.redis_url),
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)


def stop_worker(proc):
    """Warm shutdown (SIGTERM: the pool's children finish and exit), then SIGQUIT, then SIGKILL;
    then waits for the pool's children too, which leave a moment after their parent."""
    children = [pid for pid in descendants(proc.pid) if pid != proc.pid]
    for sig, wait in ((signal.SIGTERM, 20), (signal.SIGQUIT, 5), (signal.SIGKILL, 5)):
        if proc.poll() is not None:
            break
        proc.send_signal(sig)
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            pass
    deadline = time.monotonic() + 5
    while (alive := [pid for pid in children if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in alive:
        os.kill(pid, signal.SIGKILL)


def wait_ready(proc, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"celery worker exited with status {proc.returncode} before it was ready")
        if app.control.ping(timeout=0.5):
            return
    raise SystemExit(f"celery worker did not answer a ping within {timeout} s")


def stat_fields(pid):
    """/proc/PID/stat after the command name: state, ppid, ..., utime (11), stime (12)."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()


def running(pid):
    """True while PID exists and is not a zombie (where nothing reaps, exited children stay)."""
    try:
        return stat_fields(pid)[0] != "Z"
    except FileNotFoundError:
        return False


def descendants(pid):
    """PID and all its descendants (the worker and its pool's child processes)."""
    found, todo = [], [pid]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    todo.extend(int(child) for child in f.read().split())
        except FileNotFoundError:
            continue
    return found


def cpu_seconds(pid, client):
    """CPU seconds used so far by PID and its descendants, by Redis (its own INFO cpu) and by
    this driver. On a shared machine the wall-clock rate moves with the neighbours' load; the
    CPU a job costs moves much less, so it is printed too."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for each in descendants(pid):
        try:
            fields = stat_fields(each)
            total += (int(fields[11]) + int(fields[12])) / tick
        except FileNotFoundError:
            continue
    info = client.info("cpu")
    return total + info["used_cpu_user"] + info["used_cpu_sys"] + time.process_time()


def enqueue(producer, count):
    """Publishes COUNT no-op tasks, CHUNK per Redis round trip; returns their result keys.

    kombu 5.7's Producer.batch() buffers publishes in one Redis pipeline (an LPUSH per task,
    sent together): the fastest enqueue Celery offers. group(...).apply_async() and a plain
    apply_async loop on one producer both pay a round trip per task and were 2.5× and 1.8×
    slower here.
    """
    keys = []
    for start in range(0, count, CHUNK):
        with producer.batch(max_size=CHUNK):
            for _ in range(min(CHUNK, count - start)):
                result = noop.apply_async(producer=producer)
                keys.append(app.backend.get_key_for_task(result.id))
    return keys


def wait_done(client, keys, deadline):
    """Returns when every result key exists, i.e. every task has run and stored its result.

    Why this way: the result keys are written by the backend anyway, so counting them adds
    nothing to Celery's work per task (a task INCRing a counter would add a Redis round trip to
    every task), while GroupResult.join() would decode every result in this process. Tasks end
    roughly in order, so one EXISTS over the oldest unfinished chunk of 500 keys every 20 ms is
    enough (a few hundred microseconds of Redis per poll; 20 ms is 0.2% of a 10 s run). A task
    that ends out of order only means its chunk is checked again.
    """
    done = 0
    while done < len(keys):
        chunk = keys[done:done + CHUNK]
        if client.exists(*chunk) == len(chunk):
            done += len(chunk)
            continue
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out: fewer than {done + len(chunk)} of {len(keys)} tasks done")
        time.sleep(0.02)


def check_results(client, keys):
    """After the clock has stopped: every task stored SUCCESS (none failed)."""
    for start in range(0, len(keys), CHUNK):
        for raw in client.mget(keys[start:start + CHUNK]):
            if raw is None or json.loads(raw)["status"] != "SUCCESS":
                raise SystemExit(f"a task did not succeed: {raw!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--redis-url", required=True)
    parser.add_argument("--jobs", type=int, default=20000)
    parser.add_argument("--workers", type=int, default=4, help="the pool's concurrency")
    parser.add_argument("--pool", choices=("prefork", "threads"), default="prefork")
    parser.add_argument("--log", default=os.devnull, help="where the worker's output goes")
    parser.add_argument("--timeout", type=float, default=600, help="seconds for the timed run")
    args = parser.parse_args()
    app.conf.broker_url = app.conf.result_backend = args.redis_url
    # The driver never waits on an AsyncResult, so it does not subscribe to each task's result
    # channel: Celery's Redis backend does that on every send by default, one SUBSCRIBE round
    # trip per task that is no part of the queue's work (our driver pays nothing like it).
    app.backend.on_task_call = lambda producer, task_id: None

    client = app.backend.client
    delete_our_keys(client)
    worker = start_worker(args)

    def interrupted(signum, _frame):
        # Cleans up inside the handler and leaves at once: an exception raised from a handler
        # is swallowed when it lands in a __del__ (Celery's AsyncResult has one), and the run
        # would go on.
        stop_worker(worker)
        try:
            delete_our_keys(client)
        finally:
            os._exit(128 + signum)
    signal.signal(signal.SIGINT, interrupted)   # Ctrl-C
    signal.signal(signal.SIGTERM, interrupted)  # a script's trap, a timeout
    try:
        wait_ready(worker)
        with app.producer_or_acquire() as producer:
            # One chunk untimed, so every pool process has started and run tasks.
            wait_done(client, enqueue(producer, CHUNK), time.monotonic() + 60)
            cpu_before = cpu_seconds(worker.pid, client)
            started = time.monotonic()
            keys = enqueue(producer, args.jobs)
            enqueued = time.monotonic()
            wait_done(client, keys, started + args.timeout)
            seconds = time.monotonic() - started
            cpu = cpu_seconds(worker.pid, client) - cpu_before
        check_results(client, keys)
        print(f"celery jobs={args.jobs} workers={args.workers} pool={args.pool} "
              f"seconds={seconds:.3f} jobs_per_s={args.jobs / seconds:.1f} "
              f"enqueue_seconds={enqueued - started:.3f} cpu_ms_per_job={cpu * 1000 / args.jobs:.3f}",
              flush=True)
    finally:
        stop_worker(worker)
        delete_our_keys(client)


if __name__ == "__main__":
    main()
