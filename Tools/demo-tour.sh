#!/usr/bin/env bash
# The short tour before the live demo (`make demo-tour`): the zone engine
# and the road router by command on the demo city, then the dispatch engine
# against a simulated fleet in simulated time.
# Usage: Tools/demo-tour.sh BIN_DIR ZONE_FILE
set -euo pipefail
bin=${1:?usage: Tools/demo-tour.sh BIN_DIR ZONE_FILE}
zones=${2:?usage: Tools/demo-tour.sh BIN_DIR ZONE_FILE}
mytaxi=$bin/mytaxi
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Check the zone file (SPEC Z1, Z3)" "$mytaxi" zones validate "$zones"
printf '\n== Which zone is this point in? (Z2: on a shared border, the smallest id wins)\n'
for place in "-73.9855,40.7580 Times Square" "-73.9772,40.7527 Grand Central" "-74.0200,40.7500 the Hudson River"; do
  zone=$(echo "${place%% *}" | "$mytaxi" zones lookup --zones "$zones")
  printf '%-18s %-18s -> %s\n' "${place#* }" "${place%% *}" "${zone:-outside the service area}"
done

graph=$work/midtown.graph
step "Build the Midtown road graph with the fitted NYC speed profile (SPEC R1, R4)" \
  "$mytaxi" graph build "$root/Maps/manhattan-midtown.osm.pbf" -o "$graph" --time-zone America/New_York \
  --speed-profile "$root/Profiles/nyc-manhattan.csv" --zones "$zones"
step "Times Square to Penn Station, Monday 08:30 (R3)" \
  "$mytaxi" route --graph "$graph" --from=-73.9855,40.7580 --to=-73.99377,40.75141 --depart 2026-11-23T08:30:00-05:00
step "The dispatch engine against 300 simulated taxis and 600 requests an hour, 2 hours of the Monday rush (SPEC D2-D4, D9)" \
  "$mytaxi" dispatch simulate --zones "$zones" --graph "$graph" --taxis 300 --requests-per-hour 600 --hours 2 \
  --refusal-rate 0.1 --seed 2026
