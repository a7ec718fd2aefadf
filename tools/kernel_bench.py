#!/usr/bin/python3
"""Times ag-kernel through jupyter_client: the round trip of a `1 + 1` cell
(execute_request until its reply and the idle status; median of 100) and
the start-up (from starting the process until it answers a kernel_info
request sent before it started; median of 5). The kernel is the "ag" kernelspec found on JUPYTER_PATH.

usage: JUPYTER_PATH=PREFIX/share/jupyter tools/kernel_bench.py
"""
import statistics
import subprocess
import time

from jupyter_client import BlockingKernelClient
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager


def start_up_time(argv):
    """Seconds from starting the kernel process until it answers kernel_info.
    The client connects and asks first (ZeroMQ queues the request until the
    kernel binds its ports), so this is the kernel's time, not the client's
    polling."""
    km = KernelManager(kernel_name="ag")
    km.write_connection_file()
    kc = BlockingKernelClient(connection_file=km.connection_file)
    kc.load_connection_file()
    kc.start_channels()
    msg_id = kc.kernel_info()
    cmd = [a.replace("{connection_file}", km.connection_file) for a in argv]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            reply = kc.get_shell_msg(timeout=30)
            if reply["parent_header"].get("msg_id") == msg_id:
                return time.perf_counter() - t0
    finally:
        kc.stop_channels()
        proc.kill()
        proc.wait()
        km.cleanup_connection_file()


def start_up():
    km = KernelManager(kernel_name="ag")
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=30)
    return km, kc


def round_trip(kc):
    t0 = time.perf_counter()
    reply = kc.execute_interactive("1 + 1", timeout=10, output_hook=lambda msg: None)
    elapsed = time.perf_counter() - t0
    assert reply["content"]["status"] == "ok"
    return elapsed


def main():
    argv = KernelSpecManager().get_kernel_spec("ag").argv
    starts = [start_up_time(argv) for _ in range(5)]
    km, kc = start_up()
    try:
        for _ in range(5):
            round_trip(kc)  # warm up
        trips = [round_trip(kc) for _ in range(100)]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    print(f"1 + 1 round trip: median {statistics.median(trips) * 1000:.2f} ms "
          f"(min {min(trips) * 1000:.2f}, max {max(trips) * 1000:.2f}, 100 cells)")
    print(f"start-up to kernel_info reply: median {statistics.median(starts):.3f} s "
          f"(min {min(starts):.3f}, 5 starts)")


if __name__ == "__main__":
    main()
