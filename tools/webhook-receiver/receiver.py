"""A webhook receiver for Reelwork's tests: verifies every request's signature with the
`standardwebhooks` package (an implementation that is not Reelwork's) and records what it got.

    receiver.py --dir DIR [--host 127.0.0.1] [--port 0] [--tls-cert PEM --tls-key PEM]

With --tls-cert and --tls-key it speaks HTTPS with that certificate, and records the TLS server
name (SNI) each request's connection asked for.

Prints `listening HOST:PORT` on stdout once it accepts connections, and exits when its standard
input closes (so it never outlives the test that started it). Files, so a test needs no HTTP client
to steer it:
    DIR/secrets.json    ["whsec_…", …]: the secrets to verify with (any may match), read at each
                        request (the test writes it once it knows the endpoint's secret)
    DIR/records.jsonl   one line per request, appended as it arrives:
        {"path", "id", "timestamp", "signature", "contentType", "body", "status", "receivedAt",
         "verified": [true|false per secret], "error": the verifier's complaint or null,
         "tlsServerName": the SNI of the connection (HTTPS only) or null}

The path chooses how it answers (per `webhook-id`, counting that delivery's requests):
    /ok                   200
    /fail                 500, always
    /fail-twice           500 for the first two requests, then 200
    /gone                 410
    /slow/SECONDS         waits SECONDS, then 200
    /retry-after/N        503 with `Retry-After: N` the first time, then 200
    /retry-after-date/N   the same with an HTTP date N seconds ahead
    /big                  200 with a 1 MB body
    /redirect/PORT        307 to http://127.0.0.1:PORT/ok (a sender must not follow it)
"""

import argparse
import email.utils
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook, WebhookVerificationError

lock = threading.Lock()
seen = {}  # (path, webhook-id) -> requests so far
directory = "."


def current_secrets():
    try:
        with open(os.path.join(directory, "secrets.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return []


def record(entry):
    with lock, open(os.path.join(directory, "records.jsonl"), "a") as f:
        f.write(json.dumps(entry) + "\n")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        headers = {k.lower(): v for k, v in self.headers.items()}
        msg_id = headers.get("webhook-id", "")
        verified, error = [], None
        current = current_secrets()
        with lock:
            key = (self.path, msg_id)
            seen[key] = seen.get(key, 0) + 1
            count = seen[key]
        for secret in current:
            try:
                Webhook(secret).verify(body, headers)
                verified.append(True)
            except WebhookVerificationError as e:
                verified.append(False)
                error = str(e)
        status, extra, reply_body = self.decide(count)
        record({
            "path": self.path, "id": msg_id, "timestamp": headers.get("webhook-timestamp"),
            "signature": headers.get("webhook-signature"), "contentType": headers.get("content-type"),
            "body": body.decode("utf-8", "replace"), "status": status, "receivedAt": time.time(),
            "verified": verified, "error": error, "tlsServerName": getattr(self.connection, "sni_name", None),
        })
        try:
            self.reply(status, reply_body, extra)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the sender gave up (a timeout test)

    def decide(self, count):
        parts = self.path.strip("/").split("/")
        mode, arg = parts[0], (parts[1] if len(parts) > 1 else None)
        if mode == "ok":
            return 200, (), b"ok"
        if mode == "fail":
            return 500, (), b"always failing"
        if mode == "fail-twice":
            return (500, (), b"not yet") if count <= 2 else (200, (), b"ok")
        if mode == "gone":
            return 410, (), b"gone"
        if mode == "slow":
            time.sleep(float(arg))
            return 200, (), b"late"
        if mode == "retry-after":
            return (503, [("Retry-After", arg)], b"busy") if count == 1 else (200, (), b"ok")
        if mode == "retry-after-date":
            when = email.utils.formatdate(time.time() + float(arg), usegmt=True)
            return (503, [("Retry-After", when)], b"busy") if count == 1 else (200, (), b"ok")
        if mode == "redirect":
            return 307, [("Location", f"http://127.0.0.1:{int(arg)}/ok")], b"moved"
        if mode == "big":
            return 200, (), b"x" * 1_000_000
        return 404, (), b"no such mode"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    args = parser.parse_args()
    global directory
    directory = args.dir
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    server.daemon_threads = True
    if args.tls_cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls_cert, args.tls_key)

        def remember_server_name(connection, name, _context):
            connection.sni_name = name

        context.sni_callback = remember_server_name
        server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening {args.host}:{server.server_address[1]}", flush=True)
    sys.stdin.read()  # until the test closes it (or dies)
    os._exit(0)


if __name__ == "__main__":
    main()
