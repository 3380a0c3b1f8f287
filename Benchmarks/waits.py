#!/usr/bin/env python3
"""Where a process's threads wait off the CPU, sampled from /proc (Linux only).

perf on these machines sees a fraction of the CPU and nothing of the time a thread spends
blocked, and valgrind does not run the Swift runtime; a request that takes 200 ms while the
server's CPU is idle is waiting somewhere. Every INTERVAL ms this reads each thread's state and,
for a thread blocked in the kernel (state D, or asleep anywhere but the idle waits below), the
kernel function it waits in (wchan), the system call it is in and the file that call is on. On exit
(the process ending, SECONDS elapsing, or SIGINT/SIGTERM) it prints:

- each wait site (wchan, system call, file) with its samples and the time they stand for;
- every stretch of at least STREAK ms that one thread spent in uninterruptible waits (state D),
  with when it started relative to the first sample: these are the stalls a request queued
  behind that thread feels.

  python3 Benchmarks/waits.py PID                           # until PID exits or ^C
  python3 Benchmarks/waits.py PID --seconds 30 --out waits.md
  python3 Benchmarks/waits.py PID --interval-ms 2 --streak-ms 20

Sampling costs CPU (about a tenth of a core at 5 ms with twenty threads): the figures of a
benchmark measured with it running are not comparable with one measured without.
"""
import argparse
import os
import platform
import signal
import sys
import time
from collections import Counter, defaultdict

# Asleep here means idle: waiting for work, a socket or a timer.
IDLE_WCHANS = {
    "do_epoll_wait", "ep_poll", "futex_wait_queue", "futex_wait_queue_me", "futex_do_wait",
    "hrtimer_nanosleep", "do_nanosleep", "do_sys_poll", "do_select", "sigsuspend", "sigsuspend.isra.0",
    "do_sigtimedwait", "pipe_read", "unix_stream_read_generic", "inet_csk_accept", "wait_woken",
    "do_wait", "0",
}

SYSCALLS = {
    "x86_64": {0: "read", 1: "write", 2: "open", 3: "close", 7: "poll", 17: "pread64", 18: "pwrite64",
               19: "readv", 20: "writev", 23: "select", 44: "sendto", 45: "recvfrom", 46: "sendmsg",
               47: "recvmsg", 74: "fsync", 75: "fdatasync", 76: "truncate", 77: "ftruncate",
               82: "rename", 87: "unlink", 202: "futex", 232: "epoll_wait", 257: "openat",
               281: "epoll_pwait", 285: "fallocate"},
    "aarch64": {17: "getcwd", 46: "ftruncate", 47: "fallocate", 56: "openat", 57: "close", 63: "read",
                64: "write", 65: "readv", 66: "writev", 67: "pread64", 68: "pwrite64", 82: "fsync",
                83: "fdatasync", 98: "futex", 206: "sendto", 207: "recvfrom", 211: "sendmsg",
                212: "recvmsg", 22: "epoll_pwait"},
}.get(platform.machine(), {})


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def blocked_in(pid, tid):
    """(system call, file) a blocked thread is in, as far as /proc tells."""
    fields = (read(f"/proc/{pid}/task/{tid}/syscall") or "").split()
    if not fields or not fields[0].lstrip("-").isdigit():
        return ("-", "")
    number = int(fields[0])
    name = SYSCALLS.get(number, str(number))
    target = ""
    if len(fields) > 1:
        try:
            fd = int(fields[1], 16)
            if 0 <= fd < 1 << 20:
                target = os.path.basename(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except (ValueError, OSError):
            pass
    return (name, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pid", type=int)
    parser.add_argument("--interval-ms", type=float, default=5.0)
    parser.add_argument("--seconds", type=float, default=0.0, help="stop after this long (0: until the process exits or a signal)")
    parser.add_argument("--streak-ms", type=float, default=40.0, help="list uninterruptible waits at least this long")
    parser.add_argument("--out", help="also write the report to this file")
    args = parser.parse_args()
    if not os.path.isdir(f"/proc/{args.pid}/task"):
        sys.exit(f"waits.py: no process {args.pid} under /proc (Linux only)")

    stop = False

    def finish(*_):
        nonlocal stop
        stop = True
    signal.signal(signal.SIGINT, finish)
    signal.signal(signal.SIGTERM, finish)

    interval = args.interval_ms / 1000
    sites = Counter()            # (state, wchan, syscall, file) → samples
    on_cpu = Counter()           # thread name → samples running
    open_streaks = {}            # tid → [start, last, Counter of sites, name]
    streaks = []                 # (start, duration, tid, name, top site)
    samples = 0
    first = time.monotonic()
    deadline = first + args.seconds if args.seconds > 0 else None

    def close_streak(tid):
        start, last, where, name = open_streaks.pop(tid)
        duration = last - start + interval
        if duration * 1000 >= args.streak_ms:
            streaks.append((start - first, duration, tid, name, where.most_common(1)[0][0]))

    while not stop and (deadline is None or time.monotonic() < deadline):
        now = time.monotonic()
        try:
            tids = os.listdir(f"/proc/{args.pid}/task")
        except OSError:
            break
        samples += 1
        in_d = set()
        for tid in tids:
            stat = read(f"/proc/{args.pid}/task/{tid}/stat")
            if not stat:
                continue
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            state = stat[stat.rindex(")") + 2]
            if state == "R":
                on_cpu[name] += 1
                continue
            if state not in "DS":
                continue
            wchan = (read(f"/proc/{args.pid}/task/{tid}/wchan") or "?").strip() or "0"
            if state == "S" and wchan in IDLE_WCHANS:
                continue
            syscall, target = blocked_in(args.pid, tid)
            site = (state, wchan, syscall, target)
            sites[site] += 1
            if state == "D":
                in_d.add(tid)
                streak = open_streaks.setdefault(tid, [now, now, Counter(), name])
                streak[1] = now
                streak[2][(wchan, syscall, target)] += 1
        for tid in [t for t in open_streaks if t not in in_d]:
            close_streak(tid)
        time.sleep(max(0.0, interval - (time.monotonic() - now)))
    for tid in list(open_streaks):
        close_streak(tid)

    elapsed = time.monotonic() - first
    ms = lambda n: f"{n * args.interval_ms:,.0f}"
    lines = [f"### Off-CPU waits of process {args.pid}", "",
             f"{samples:,} samples every {args.interval_ms:g} ms over {elapsed:.1f} s; ms = samples × interval (an estimate).", "",
             "| state | kernel wait (wchan) | system call | file | samples | ≈ ms |", "|---|---|---|---|---|---|"]
    for (state, wchan, syscall, target), n in sites.most_common(20):
        lines.append(f"| {state} | `{wchan}` | {syscall} | {target or '—'} | {n:,} | {ms(n)} |")
    if not sites:
        lines.append("| — | nothing blocked outside the idle waits | | | 0 | 0 |")
    lines += ["", f"Uninterruptible stretches of {args.streak_ms:g} ms or more (one thread each):", ""]
    if streaks:
        lines += ["| at s | ms | thread | mostly in |", "|---|---|---|---|"]
        for start, duration, tid, name, (wchan, syscall, target) in sorted(streaks):
            lines.append(f"| {start:.2f} | {duration * 1000:.0f} | {tid} {name} | `{wchan}` {syscall} {target} |")
    else:
        lines.append("none.")
    lines += ["", "Samples running, by thread name: " + ", ".join(f"{name} {n:,}" for name, n in on_cpu.most_common(6))]
    report = "\n".join(lines) + "\n"
    sys.stdout.write(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
