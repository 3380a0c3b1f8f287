"""Resource attacks: issue 11 items 1–5, slowloris, 10,000 idle connections."""
import gzip
import os
import select
import socket
import threading
import time

from cases_holding import HOST
from harness import Client, ConnectionClosed, case, check, exchange, wait_until

MIB = 1024 * 1024


def peak_rss_while(server, action, interval=0.05):
    """Runs `action()` while sampling the server's RSS; returns (action's result, peak RSS)."""
    peak = [server.rss()]
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                peak[0] = max(peak[0], server.rss())
            except OSError:
                return
            done.wait(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        result = action()
    finally:
        done.set()
        sampler.join(timeout=2)
    peak[0] = max(peak[0], server.rss())
    return result, peak[0]


# MARK: - 1. A client that never reads

@case("a client that pipelines and never reads cannot grow RSS past the read limit", defect=1, server="fresh")
def never_reads(ctx):
    server = ctx.server
    base = server.rss()
    client = Client(ctx.port, rcvbuf=4096)
    # First a few requests whose 20 KB answers overflow the socket buffers, so the server's
    # output is blocked while little input is buffered; then a flood of pipelined requests.
    client.send(f"GET /__admin/openapi.json HTTP/1.1\r\n{HOST}\r\n" * 20)
    time.sleep(1.0)  # the server answers the first and blocks on output; nothing signals that
    client.sock.setblocking(False)
    flood = f"GET /__admin/health HTTP/1.1\r\n{HOST}\r\n".encode() * 2000
    sent = [0]

    def send_flood():
        # Bounded: 4 s, or 768 MiB accepted by the server (today's server takes >1 GiB in 4 s).
        started = time.monotonic()
        while time.monotonic() - started < 4 and sent[0] < 768 * MIB:
            _, writable, _ = select.select([], [client.sock], [], 0.2)
            if not writable:
                continue
            try:
                sent[0] += client.sock.send(flood)
            except BlockingIOError:
                continue
            except OSError:
                break
    try:
        _, peak = peak_rss_while(server, send_flood)
    finally:
        client.close()
    growth = (peak - base) / MIB
    ctx.note(f"server accepted {sent[0] / MIB:.0f} MiB of requests; RSS +{growth:.0f} MiB")
    check(growth <= 48, f"RSS grew {growth:.0f} MiB while the client never read (limit: the 1 MiB read limit plus slack, 48 MiB)")


# MARK: - 2. Trailers

@case("64k trailer fields get 431 quickly, other clients unaffected", defect=2, server="fresh")
def many_trailers(ctx):
    trailers = b"X-T: 1\r\n" * 65536
    data = f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n".encode() + trailers + b"\r\n"
    client = Client(ctx.port, timeout=10)
    started = time.monotonic()
    sender = threading.Thread(target=send_ignoring_reset, args=(client, data), daemon=True)
    sender.start()
    try:
        try:
            response = client.response(timeout=10)
        except (ConnectionClosed, socket.timeout, TimeoutError) as error:
            check(False, f"no answer within 10 s ({type(error).__name__} {error}); the trailer parse is quadratic")
        ctx.note(f"{response.status} after {time.monotonic() - started:.1f}s")
        check(response.status == 431, f"status {response.status} for {len(trailers) // 1024} KiB of trailers, wanted 431")
    finally:
        client.close()
        sender.join(timeout=2)


def send_ignoring_reset(client, data):
    try:
        client.send(data)
    except OSError:
        pass


# MARK: - 3. Reset while the handler runs

@case("a client reset while its handler runs does not spin a loop", defect=3, server="fresh")
def reset_during_handler(ctx):
    server = ctx.server
    clients = []
    # Four, so that every event loop (connections are spread round robin) gets one.
    for _ in range(4):
        client = Client(ctx.port)
        client.send(f"GET /asleep/slow HTTP/1.1\r\n{HOST}X-Understudy-Fault: delay=4000\r\n\r\n")
        clients.append(client)
    time.sleep(0.3)  # the handlers are now sleeping in the delay fault
    for client in clients:
        client.reset()
    time.sleep(0.3)
    demand, cpu = server.cpu_demand_over(1.0)
    ctx.note(f"while the handlers still ran: busiest thread wants {demand * 100:.0f}% of a core, process CPU {cpu * 100:.0f}%")
    check(demand < 0.5, f"a server thread wanted {demand * 100:.0f}% of a core for a second with only reset connections "
                        "waiting on handlers (spinning on EPOLLHUP)")


# MARK: - 4. The descriptor limit

EMFILE_LIMITS = (64, 128)


@case("soft descriptor limit is raised to the hard limit at start", defect=4, server="fresh", nofile=EMFILE_LIMITS)
def nofile_raised(ctx):
    soft, hard = ctx.server.nofile_limits()
    ctx.note(f"started with soft {EMFILE_LIMITS[0]}, hard {EMFILE_LIMITS[1]}; now soft {soft}, hard {hard}")
    check(soft == hard == EMFILE_LIMITS[1], f"soft limit {soft}, wanted it raised to the hard limit {EMFILE_LIMITS[1]}")


@case("at the descriptor limit the accept loop does not spin and recovers", defect=4, server="fresh", nofile=(96, 96))
def emfile(ctx):
    server = ctx.server
    clients = []
    try:
        for _ in range(160):  # well past the 96 descriptors the server may have
            try:
                clients.append(Client(ctx.port, timeout=2))
            except OSError:
                break
        wait_until(lambda: server.fds() >= 90, timeout=3)
        demand, cpu = server.cpu_demand_over(1.0)
        ctx.note(f"{len(clients)} connections held, server fds {server.fds()}; busiest thread wants {demand * 100:.0f}% "
                 f"of a core, process CPU {cpu * 100:.0f}%")
        check(demand < 0.5, f"a server thread wanted {demand * 100:.0f}% of a core for a second while out of descriptors")
    finally:
        for client in clients:
            client.close()
    answered = wait_until(lambda: health_ok(ctx.port), timeout=10, interval=0.2)
    check(answered, "server does not answer after the clients left")


def health_ok(port):
    try:
        response, _ = exchange(port, f"GET /__admin/health HTTP/1.1\r\n{HOST}Connection: close\r\n\r\n", timeout=1)
        return response is not None and response.status == 200
    except OSError:
        return False


# MARK: - 5. Memory held by bodies

# The server-wide body budget's flag did not exist when these cases were written: pass it with
# HOSTILE_BUDGET_ARGS (e.g. "--max-buffered-body-bytes 268435456") and say what it allows with
# HOSTILE_BUDGET_MIB, so the assertion follows the configured budget.
BUDGET_ARGS = tuple(os.environ.get("HOSTILE_BUDGET_ARGS", "").split())
BUDGET_MIB = int(os.environ.get("HOSTILE_BUDGET_MIB", "256"))

def held_bodies(ctx, make_body, label):
    """Sixteen requests whose bodies are held while a delay fault keeps their handlers running."""
    server = ctx.server
    base = server.rss()
    answers = [None] * 16

    def one(index):
        body, extra = make_body()
        try:
            client = Client(ctx.port, timeout=30)
            client.send(f"POST /asleep/hold HTTP/1.1\r\n{HOST}X-Understudy-Fault: delay=3000\r\n{extra}"
                        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
            answers[index] = client.response(timeout=30)
            client.close()
        except (OSError, ConnectionClosed) as error:
            answers[index] = error

    def attack():
        threads = [threading.Thread(target=one, args=(index,), daemon=True) for index in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=40)
    _, peak = peak_rss_while(server, attack)
    growth = (peak - base) / MIB
    statuses = [answer.status if hasattr(answer, "status") else repr(answer) for answer in answers]
    ctx.note(f"{label}: RSS +{growth:.0f} MiB, answers {sorted(set(map(str, statuses)))}")
    for answer in answers:
        check(hasattr(answer, "status"), f"a client got no answer: {answer!r}")
        if answer.status == 503:
            check(answer.header("retry-after") is not None, "503 without Retry-After")
    # 16 × 31 MiB is ~500 MiB; the budget plus room for one body in flight and the runtime.
    allowed = BUDGET_MIB + 64
    check(growth <= allowed, f"RSS grew {growth:.0f} MiB with 16 bodies of 31 MiB held; wanted a server-wide budget "
                             f"(≤ {allowed} MiB: budget {BUDGET_MIB} MiB + 64)")


@case("16 concurrent gzip bombs held open stay within a memory budget", defect=5, server="fresh", extra_args=BUDGET_ARGS)
def held_gzip_bombs(ctx):
    bomb = gzip.compress(bytes(31 * MIB), compresslevel=9, mtime=0)
    held_bodies(ctx, lambda: (bomb, "Content-Encoding: gzip\r\n"), f"{len(bomb) // 1024} KiB gzip → 31 MiB each")


@case("16 concurrent 31 MiB bodies held open stay within a memory budget", defect=5, server="fresh", extra_args=BUDGET_ARGS)
def held_plain_bodies(ctx):
    body = bytes(31 * MIB)
    held_bodies(ctx, lambda: (body, ""), "31 MiB plain each")


# MARK: - Slowloris and many idle connections

@case("slowloris: 500 slow heads each get 408 at the header timeout")
def slowloris(ctx):
    timeout = 3.0  # the shared server's --header-timeout
    clients = [Client(ctx.port, timeout=3 * timeout) for _ in range(500)]
    started = time.monotonic()
    try:
        for client in clients:
            client.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        answers, ends = {}, []
        open_clients = list(clients)
        while open_clients and time.monotonic() - started < 3 * timeout:
            readable, _, _ = select.select([c.sock for c in open_clients], [], [], 0.5)
            for client in [c for c in open_clients if c.sock in readable]:
                try:
                    status = client.response(timeout=1).status
                except (ConnectionClosed, OSError):
                    status = "closed"
                answers[status] = answers.get(status, 0) + 1
                ends.append(time.monotonic() - started)
                open_clients.remove(client)
            for client in open_clients:  # a byte now and then keeps each head "in progress"
                try:
                    client.sock.send(b"a")
                except OSError:
                    pass
        ctx.note(f"answers {answers}; first at {min(ends, default=0):.1f}s, last at {max(ends, default=0):.1f}s")
        check(not open_clients, f"{len(open_clients)} slow connections still open after {3 * timeout:.0f}s")
        check(answers.get(408, 0) == 500, f"wanted 500 × 408, got {answers}")
    finally:
        for client in clients:
            client.close()


@case("10,000 idle keep-alive connections are held cheaply and released")
def ten_thousand_idle(ctx):
    server = ctx.server
    base_rss, base_fds = server.rss(), server.fds()
    clients = []
    request = f"GET /__admin/health HTTP/1.1\r\n{HOST}\r\n".encode()
    try:
        for _ in range(10_000):
            try:
                clients.append(Client(ctx.port, timeout=10))
            except OSError as error:
                check(False, f"connection {len(clients) + 1} failed: {error}")
            clients[-1].sock.send(request)
        for client in clients:
            check(client.response(timeout=10).status == 200, "a keep-alive request failed")
        check(wait_until(lambda: server.fds() >= base_fds + 9_900, timeout=10), f"server holds {server.fds() - base_fds} connections")
        per_connection = (server.rss() - base_rss) / len(clients)
        ctx.note(f"{len(clients)} idle connections, {per_connection / 1024:.1f} KiB each")
        check(health_ok(ctx.port), "health not answered with 10,000 idle connections open")
    finally:
        for client in clients:
            client.close()
    check(wait_until(lambda: server.fds() <= base_fds + 4, timeout=15), f"{server.fds() - base_fds} descriptors left after the clients closed")

