#!/usr/bin/env python3
"""A DNS server of a test's own that changes its answer: the attacker of issue 27's DNS rebinding.

It answers A queries for one name with the addresses given, in order, one per query, and keeps
answering the last one; AAAA queries get an empty answer (NOERROR, no records), any other name
NXDOMAIN. Every answer has TTL 0, so nothing may cache it. Each query is appended to --log as a
JSON line ({"name", "type", "answer"}) before it is answered, so a test can count the lookups.

Stdlib only. Prints "listening on HOST:PORT" once it is ready; stops on SIGTERM or when its
standard input closes (the test that started it went away).

    rebinding_dns.py --host 127.53.0.1 --port 53 --name hooks.rebind.test \
        --answers 127.0.0.2,127.0.0.2,127.0.0.1 --log queries.jsonl
"""
import argparse
import ipaddress
import json
import os
import socket
import struct
import sys
import threading

TYPE_A, TYPE_AAAA, CLASS_IN = 1, 28, 1


def parse_question(packet):
    """(id, flags, labels, qtype, qclass, end of question) of a one-question query, or None."""
    if len(packet) < 12:
        return None
    ident, flags, qdcount = struct.unpack("!HHH", packet[:6])
    if qdcount != 1 or flags & 0x8000:
        return None
    labels, offset = [], 12
    while True:
        if offset >= len(packet):
            return None
        length = packet[offset]
        offset += 1
        if length == 0:
            break
        if length > 63 or offset + length > len(packet):
            return None
        labels.append(packet[offset:offset + length].decode("ascii", "replace").lower())
        offset += length
    if offset + 4 > len(packet):
        return None
    qtype, qclass = struct.unpack("!HH", packet[offset:offset + 4])
    return ident, flags, labels, qtype, qclass, offset + 4


def answer(packet, question, rcode, address):
    """The response: the question echoed, and one A record (TTL 0) when `address` is given."""
    ident, flags, _, _, _, end = question
    recursion_desired = flags & 0x0100
    header_flags = 0x8000 | 0x0400 | recursion_desired | 0x0080 | rcode   # response, authoritative, RA
    ancount = 1 if address else 0
    header = struct.pack("!HHHHHH", ident, header_flags, 1, ancount, 0, 0)
    body = packet[12:end]
    if address:
        # A pointer to the question's name (offset 12), type A, class IN, TTL 0, 4 bytes of address.
        body += struct.pack("!HHHIH", 0xC00C, TYPE_A, CLASS_IN, 0, 4) + ipaddress.IPv4Address(address).packed
    return header + body


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=53)
    parser.add_argument("--name", required=True, help="the one name it answers for")
    parser.add_argument("--answers", required=True, help="IPv4 addresses, comma separated: one per A query, the last repeated")
    parser.add_argument("--log", required=True, help="where each query is recorded (JSON lines)")
    options = parser.parse_args()
    name = options.name.lower().rstrip(".")
    answers = [str(ipaddress.IPv4Address(a.strip())) for a in options.answers.split(",") if a.strip()]
    if not answers:
        parser.error("--answers names no address")

    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((options.host, options.port))
    print(f"listening on {options.host}:{sock.getsockname()[1]}", flush=True)
    # The test holds our standard input: when it goes, so do we.
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()

    asked = 0
    with open(options.log, "a", buffering=1) as log:
        while True:
            packet, client = sock.recvfrom(4096)
            question = parse_question(packet)
            if question is None:
                continue
            labels, qtype, qclass = question[2], question[3], question[4]
            queried = ".".join(labels)
            reply, given = None, None
            if queried != name or qclass != CLASS_IN:
                reply = answer(packet, question, 3, None)                # NXDOMAIN
            elif qtype == TYPE_A:
                given = answers[min(asked, len(answers) - 1)]
                asked += 1
                reply = answer(packet, question, 0, given)
            else:
                reply = answer(packet, question, 0, None)                # the name exists, no record of that type
            log.write(json.dumps({"name": queried, "type": qtype, "answer": given}) + "\n")
            sock.sendto(reply, client)


if __name__ == "__main__":
    main()
