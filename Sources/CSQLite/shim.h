#include <sqlite3.h>

/// Turns off SQLite's memory statistics (sqlite3_config is variadic, which Swift cannot call).
/// With them on, every allocation SQLite makes takes one process-wide mutex to count itself,
/// which the event loops' readers and the writer contended for on every request. Must run
/// before SQLite initializes (before the first connection opens).
static inline int understudy_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
