#!/usr/bin/env python3
"""Opens N keep-alive connections to a server, sends one request on each, keeps them all open
until stdin closes or SECONDS pass, and prints how many got an answer. Loopback only."""
import socket, sys, time

host, port, count, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
assert host in ("127.0.0.1", "localhost", "::1"), "loopback only"
sockets, answered = [], 0
for _ in range(count):
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(b"GET /__admin/health HTTP/1.1\r\nHost: bench\r\n\r\n")
    sockets.append(s)
for s in sockets:
    try:
        if s.recv(4096).startswith(b"HTTP/1.1 200"):
            answered += 1
    except OSError:
        pass
print(f"held={len(sockets)} answered={answered}", flush=True)
deadline = time.time() + seconds
while time.time() < deadline:
    time.sleep(0.2)
still_open = 0
for s in sockets:
    s.setblocking(False)
    try:
        still_open += 0 if s.recv(1) == b"" else 1
    except BlockingIOError:
        still_open += 1
    except OSError:
        pass
print(f"still_open={still_open}", flush=True)
