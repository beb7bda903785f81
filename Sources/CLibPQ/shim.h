// libpq, PostgreSQL's C client library (Debian libpq-dev).
#include <libpq-fe.h>
