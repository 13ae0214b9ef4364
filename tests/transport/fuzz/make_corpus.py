#!/usr/bin/env python3
"""Writes the seed inputs of the rank-endpoint fuzz targets (formats in fuzz_input.h and
tests/mpi/fuzz/rank_message_fuzz.cc): tests/transport/fuzz/corpus/{wire_message,rendezvous}
and tests/mpi/fuzz/corpus/rank_message. Seeds are named seed-*; inputs the fuzzer finds
are added next to them with libFuzzer's -merge=1."""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))


def job_hash(job_id):
    h = 1469598103934665603
    for c in job_id.encode():
        h ^= c
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h or 1


JOB = job_hash("fuzz-job")


def header(kind, payload_bytes, envelope=b"", job=JOB, magic=0x49504D5A, version=1):
    return struct.pack("<IHHQQ", magic, version, kind, job, payload_bytes) + envelope.ljust(48, b"\0")


def frames(selector, *parts):
    out = bytes([(len(parts) & 3) | (selector << 2)])
    for i, part in enumerate(parts):
        if i + 1 < len(parts):
            out += struct.pack("<H", len(part))
        out += part
    return out


def mpi_envelope(context=0, source=1, tag=0, sender=1, send_id=0, recv_id=0, total=0):
    return struct.pack("<iiiiQQQ", context, source, tag, sender, send_id, recv_id, total)


def rdv_envelope(participant, participants=4, event=0, code=0):
    return struct.pack("<iiii", participant, participants, event, code)


def table(blobs):
    return b"".join(struct.pack("<I", len(b)) + b for b in blobs)


def varint(n):
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def peer_info(rank, host="node1", tcp=None, ipc="", pid=1234, shm=""):
    tcp = tcp if tcp is not None else "tcp://127.0.0.1:%d" % (40000 + rank)

    def field(number, text):
        data = text.encode()
        return varint(number << 3 | 2) + varint(len(data)) + data if data else b""

    out = (varint(1 << 3) + varint(rank)) if rank else b""
    out += field(2, host) + field(3, tcp) + field(4, ipc)
    out += varint(5 << 3) + varint(pid)
    return out + field(6, shm)


def write(folder, seeds):
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        if name.startswith("seed-"):
            os.remove(os.path.join(folder, name))
    for name, data in seeds.items():
        with open(os.path.join(folder, "seed-" + name), "wb") as f:
            f.write(data)
    print("wrote %d seeds to %s" % (len(seeds), os.path.relpath(folder, ROOT)))


def main():
    eager = header(1, 5, mpi_envelope()) 
    write(os.path.join(HERE, "corpus", "wire_message"), {
        "empty": b"",
        "header-only": frames(0, header(3, 0, mpi_envelope(total=1 << 20))),
        "eager": frames(0, eager, b"hello"),
        "any-job": frames(1, header(1, 3, job=12345), b"abc"),
        "missing-payload": frames(0, header(1, 100)),
        "huge-declared": frames(0, header(1, 1 << 62), b"x"),
        "short-payload": frames(0, header(1, 10), b"abc"),
        "other-job": frames(0, header(1, 0, job=7)),
        "old-version": frames(0, header(1, 0, version=0)),
        "bad-magic": frames(0, header(1, 0, magic=0xDEADBEEF)),
        "extra-frame": frames(0, header(1, 1), b"a", b"b"),
        "truncated": frames(0, header(1, 0)[:40]),
        "declared-empty-with-payload": frames(0, header(1, 0), b"zz"),
    })
    blobs = [b"rank-0", b"rank-1", b"", b"rank-3"]
    write(os.path.join(HERE, "corpus", "rendezvous"), {
        "hello": frames(0, header(0x100, 6, rdv_envelope(1)), b"rank-1"),
        "hello-wrong-size": frames(0, header(0x100, 1, rdv_envelope(1, participants=9)), b"x"),
        "hello-bad-index": frames(0, header(0x100, 1, rdv_envelope(7)), b"x"),
        "event": frames(0, header(0x103, 0, rdv_envelope(2, event=2, code=3))),
        "event-with-payload": frames(0, header(0x103, 2, rdv_envelope(2, event=1)), b"no"),
        "unknown-kind": frames(0, header(0x777, 0, rdv_envelope(0))),
        "other-job": frames(0, header(0x100, 0, rdv_envelope(0), job=99)),
        "reply-table": frames(1, header(0x101, len(table(blobs))), table(blobs)),
        "reply-error": frames(1, header(0x102, 12), b"missing 1,2!"),
        "reply-short-table": frames(1, header(0x101, 6), table([b"ab"])),
        "reply-lying-length": frames(1, header(0x101, 8), struct.pack("<I", 0xFFFFFFF0) + b"abcd"),
        "table": frames(2 | (3 << 2), table(blobs)),
        "table-one": frames(2, table([b"only"])),
    })
    tables = {
        "one": [peer_info(0)],
        "two": [peer_info(0), peer_info(1, ipc="ipc:///tmp/zmpi-1-1", shm="/zmpi-0000000000000001-1")],
        "three": [peer_info(0), peer_info(1), peer_info(2, host="node2")],
        "wrong-rank": [peer_info(1)],
        "no-tcp": [peer_info(0, tcp="")],
        "bad-shm": [peer_info(0, shm="../../etc/passwd")],
    }
    rank = {}
    for name, entries in tables.items():
        rank["table-" + name] = bytes([1 + 2 * (len(entries) - 1)]) + table(entries)

    def msg(kind, envelope, payload=b"", **kw):
        return bytes([0]) + header(kind, len(payload), envelope, **kw) + bytes([len(payload)]) + payload

    recv_any = bytes([1, 0, 255, 64])  # post a receive: any source, any tag, 64 bytes
    rank["eager-then-recv"] = bytes([0]) + msg(1, mpi_envelope(source=1, tag=3), b"hello") + recv_any
    rank["recv-then-eager"] = bytes([0]) + recv_any + msg(2, mpi_envelope(source=2, sender=2, send_id=9), b"sync")
    rank["rts-cts-data"] = (bytes([0]) + recv_any + msg(3, mpi_envelope(source=1, total=40, send_id=5))
                            + msg(5, mpi_envelope(sender=1, send_id=5, recv_id=1), b"d" * 40))
    rank["send-then-cts"] = bytes([0]) + bytes([2, 1, 100]) + msg(4, mpi_envelope(sender=1, send_id=1, recv_id=77))
    rank["ssend-ack"] = bytes([0]) + bytes([2, 2, 8]) + msg(6, mpi_envelope(sender=2, send_id=1))
    rank["probe"] = bytes([0]) + msg(1, mpi_envelope(tag=9), b"abc") + bytes([3, 2])
    rank["bad-sender"] = bytes([0]) + recv_any + msg(3, mpi_envelope(sender=1000, total=1 << 40))
    rank["negative-sender"] = bytes([0]) + msg(6, mpi_envelope(sender=-5, send_id=1))
    rank["active-kind"] = bytes([0]) + msg(16, mpi_envelope(), b"\0" * 16)
    rank["unknown-kind"] = bytes([0]) + msg(12, mpi_envelope())
    write(os.path.join(ROOT, "tests", "mpi", "fuzz", "corpus", "rank_message"), rank)


if __name__ == "__main__":
    main()
