#!/usr/bin/env python3
"""Hostile bytes at a zmpid port, as a stranger on the network could send them.

Speaks just enough ZMTP 3.0 (NULL mechanism, as a DEALER) to get past zmq's handshake,
then sends what no launcher would: a frame declaring a terabyte, a truncated wire header,
a header of another protocol version, a wire message of a foreign kind, an unsigned
launch, a launch signed with the wrong key, and raw noise. The agent must answer only
with refusals (or close the connection) and keep serving; agents.sh checks the latter.
Usage: agent_hostile.py HOST PORT
"""
import os
import socket
import struct
import sys

MAGIC = 0x49504D5A
SIGNED_KIND = 0x0200
UNSIGNED_KIND = 0x0201


def greeting():
    return b"\xff" + b"\x00" * 8 + b"\x7f" + b"\x03\x00" + b"NULL".ljust(20, b"\x00") + b"\x00" + b"\x00" * 31


def command(name, body):
    payload = bytes([len(name)]) + name + body
    return bytes([0x04, len(payload)]) + payload


def ready():
    prop = b"Socket-Type"
    value = b"DEALER"
    return command(b"READY", bytes([len(prop)]) + prop + struct.pack(">I", len(value)) + value)


def frame(data, more=False):
    flags = 0x01 if more else 0x00
    if len(data) > 255:
        return bytes([flags | 0x02]) + struct.pack(">Q", len(data)) + data
    return bytes([flags, len(data)]) + data


def wire_header(kind, payload_bytes, version=1, envelope=b"\x00" * 48):
    return struct.pack("<IHHQQ", MAGIC, version, kind, 0, payload_bytes) + envelope


def connect(host, port):
    sock = socket.create_connection((host, port), timeout=5)
    sock.sendall(greeting())
    got = b""
    while len(got) < 64:
        chunk = sock.recv(64 - len(got))
        if not chunk:
            raise ConnectionError("closed during greeting")
        got += chunk
    sock.sendall(ready())
    return sock


def message(header, payload=b""):
    if payload:
        return frame(header, more=True) + frame(payload)
    return frame(header)


def launch_payload():
    # AgentMessage{session: 16 bytes, sequence: 1, launch: {job_id: "x"}} hand-encoded.
    session = b"\x0a\x10" + os.urandom(16)
    sequence = b"\x10\x01"
    launch = b"\x52\x03\x0a\x01x"
    return session + sequence + launch


def main():
    host, port = sys.argv[1], int(sys.argv[2])
    attempts = [
        ("a frame declaring 2^40 bytes", b"\x02" + struct.pack(">Q", 1 << 40) + b"x" * 64),
        ("a truncated wire header", frame(b"ZMPI\x01\x00")),
        ("another protocol version", message(wire_header(SIGNED_KIND, 4, version=99), b"abcd")),
        ("a payload size that lies", message(wire_header(SIGNED_KIND, 1 << 30), b"abcd")),
        ("a foreign kind", message(wire_header(0x0100, 4), b"abcd")),
        ("an unsigned launch", message(wire_header(UNSIGNED_KIND, len(launch_payload())), launch_payload())),
        ("a launch signed with the wrong key",
         message(wire_header(SIGNED_KIND, len(launch_payload()), envelope=os.urandom(48)), launch_payload())),
        ("three frames", frame(b"a", more=True) + frame(b"b", more=True) + frame(b"c")),
        ("noise after the handshake", os.urandom(4096)),
    ]
    for what, data in attempts:
        try:
            sock = connect(host, port)
            sock.sendall(data)
            sock.settimeout(0.3)
            try:
                while sock.recv(65536):
                    pass  # a refusal, or nothing: never a job
            except socket.timeout:
                pass
            sock.close()
            print("sent:", what)
        except (ConnectionError, OSError) as error:
            print("sent:", what, "(connection closed: %s)" % error)
    return 0


if __name__ == "__main__":
    sys.exit(main())
