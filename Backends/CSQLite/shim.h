// The system SQLite (Debian's libsqlite3-dev), as the StrataSQLite backend sees it.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type strata_sqlite_transient(void) { return SQLITE_TRANSIENT; }
