#!/usr/bin/env python3
"""Ping-pong only (latency and bandwidth, 0 B-4 MiB, 2 ranks): zmpi (shm and forced tcp),
Open MPI (sm, tcp), MPICH and the raw zmq floor, with ratios. Kept for old habits; it is
`bench/run_all.py --only pingpong` and takes the same options (--build, --out, --quick).
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
os.execv(sys.executable, [sys.executable, os.path.join(here, "run_all.py"),
                          "--only", "pingpong"] + sys.argv[1:])
