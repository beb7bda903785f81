#!/usr/bin/env bash
# The demo: runs what mytaxi can do today on the shipped demo city
# (Manhattan's 69 taxi zones). Usage: Tools/demo.sh MYTAXI_BINARY ZONE_FILE
set -euo pipefail
mytaxi=${1:?usage: Tools/demo.sh MYTAXI_BINARY ZONE_FILE}
zones=${2:?usage: Tools/demo.sh MYTAXI_BINARY ZONE_FILE}

step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Check the zone file (SPEC Z1, Z3)" "$mytaxi" zones validate "$zones"
step "Neighbours sharing a border, first 8 zones (Z5)" bash -c "'$mytaxi' zones neighbours --zones '$zones' | head -8"
step "Zones within 300 m of Central Park (Z5)" bash -c "'$mytaxi' zones neighbours --zones '$zones' --within 300 | grep '^43:'"

printf '\n== Which zone is this point in? (Z2: on a shared border, the smallest id wins)\n'
places=(
  "-73.9855,40.7580 Times Square"
  "-73.9654,40.7829 Central Park"
  "-74.0134,40.7127 World Trade Center"
  "-73.9772,40.7527 Grand Central"
  "-74.0445,40.6892 Statue of Liberty"
  "-74.0200,40.7500 the Hudson River"
)
for place in "${places[@]}"; do
  point=${place%% *}
  zone=$(echo "$point" | "$mytaxi" zones lookup --zones "$zones")
  printf '%-22s %-20s -> %s\n' "${place#* }" "$point" "${zone:-outside the service area}"
done

printf '\n== 1,000,000 random lookups over the city, streamed through `mytaxi zones lookup`\n'
start=$(date +%s%N)
awk 'BEGIN { srand(2026); for (i = 0; i < 1000000; i++) printf "%.7f,%.7f\n", -74.05 + rand() * 0.15, 40.68 + rand() * 0.2 }' \
  | "$mytaxi" zones lookup --zones "$zones" | awk '$0 == "" { out++ } END { printf "%d points, %d inside a zone, %d outside\n", NR, NR - out, out }'
echo "took $(( ($(date +%s%N) - start) / 1000000 )) ms (including the awk generator)"
