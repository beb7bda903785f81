#!/bin/bash
# Archived fixes/s through PostgreSQL's binary COPY, through multi-row
# INSERT and through the SQLite store, in one run with the same batches,
# against a throwaway PostgreSQL cluster (Tools/with-postgres.sh).
# Usage: Tools/bench-archive.sh BIN_DIR [mytaxi-archivebench options]
set -euo pipefail
bin="$1"
shift
here="$(cd "$(dirname "$0")" && pwd)"
"$here/with-postgres.sh" bash -c '"$0" --database "$MYTAXI_TEST_DATABASE_URL" "$@"' "$bin/mytaxi-archivebench" "$@"
