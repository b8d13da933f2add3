// The system libpq (Debian's libpq-dev), as the StrataPostgres backend sees it.
#include <libpq-fe.h>
