// The system SQLite (Debian's libsqlite3-dev), as the StrataSQLite backend sees it.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type strata_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. Turns off SQLite's memory statistics
// (SQLITE_CONFIG_MEMSTATUS), whose mutex every allocation takes; process-wide, and only possible
// before SQLite initializes (SQLITE_MISUSE afterwards, harmless: the statistics stay on).
static inline int strata_sqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
