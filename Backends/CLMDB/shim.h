// The system LMDB (Debian's liblmdb-dev), as the StrataLMDB backend sees it.
#include <lmdb.h>
