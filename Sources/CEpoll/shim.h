// epoll, eventfd and thread names for the HTTP server's event loops. Glibc's Swift module does
// not export them, and `struct epoll_event` is packed on x86-64, so Swift gets plain inline wrappers.
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <stdint.h>
#include <errno.h>

/// One readiness event: the registered token and the ready flags.
typedef struct { uint64_t token; uint32_t events; } cepoll_event;

static inline int cepoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// Registers (op = EPOLL_CTL_ADD/MOD) or removes (EPOLL_CTL_DEL) `fd` with `token`.
static inline int cepoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
}

/// Waits for up to `max` events (max ≤ 256) and copies them out unpacked.
static inline int cepoll_wait(int epfd, cepoll_event *out, int max, int timeout_ms) {
    struct epoll_event events[256];
    if (max > 256) max = 256;
    int count = epoll_wait(epfd, events, max, timeout_ms);
    for (int i = 0; i < count; i++) { out[i].token = events[i].data.u64; out[i].events = events[i].events; }
    return count;
}

static inline int cepoll_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// Accepts a connection as a non-blocking, close-on-exec socket, filling in the peer address.
static inline int cepoll_accept(int fd, struct sockaddr_storage *address, socklen_t *length) {
    return accept4(fd, (struct sockaddr *)address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// Names the calling thread as top, perf and /proc show it (Linux keeps the first 15 bytes).
static inline void cepoll_name_thread(const char *name) { prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }

static inline uint32_t cepoll_in(void) { return EPOLLIN; }
static inline uint32_t cepoll_out(void) { return EPOLLOUT; }
static inline uint32_t cepoll_err(void) { return EPOLLERR; }
static inline uint32_t cepoll_hup(void) { return EPOLLHUP; }
static inline uint32_t cepoll_rdhup(void) { return EPOLLRDHUP; }

#endif /* __linux__ */
