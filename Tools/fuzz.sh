#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (Fuzz/, target mytaxi-fuzz built with
# -sanitize=fuzzer,address) of every ingest decoder, of the pipeline, and of
# the readers of what users upload or configure: zone-set uploads
# (zones-upload), graph files (graph-file), speed profiles (speed-profile) and
# the config file of `mytaxi serve --config` (serve-config).
# Each target starts from the seeds in Fuzz/Seeds/TARGET plus, when present,
# Traccar's real frames of ../shared/data/protocols, and runs for SECONDS (or
# RUNS inputs when RUNS is set). Findings (crashes, traps, leaks, a fix with
# a number that is not finite) are saved under .fuzz/artifacts and make the
# script exit 1; replay one with `mytaxi-fuzz TARGET FILE` in a normal build.
# Linked with lld: gold stops with an internal error on the instrumented objects.
# Usage: Tools/fuzz.sh [SECONDS] [TARGET...]   (RUNS=10000000 Tools/fuzz.sh 0 gt06)
set -euo pipefail
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(line line-udp nmea osmand teltonika teltonika-udp gt06 pipeline
  zones-upload graph-file speed-profile serve-config)
scratch=.build-fuzz
flags=(-c release --scratch-path "$scratch" --product mytaxi-fuzz
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -use-ld=lld)
echo "building mytaxi-fuzz with libFuzzer and AddressSanitizer (first time: a few minutes)"
swift build "${flags[@]}" 2>&1 | grep -E 'error|warning: unre|Compiling mytaxi_fuzz|Build complete' || true
bin="$(swift build "${flags[@]}" --show-bin-path)/mytaxi-fuzz"
[ -x "$bin" ] || { echo "the fuzz build failed; run: swift build ${flags[*]}" >&2; exit 2; }

work=.fuzz
mkdir -p "$work/artifacts"
vectors=../shared/data/protocols/protocols.json
failed=0
# The last "NAME: N" count libFuzzer printed; empty when it printed none (a
# crash at the first input), which grep | tail under pipefail would turn into
# the script's exit before the result line.
last_count() { awk -v name="$1:" '{ for (i = 1; i < NF; i++) if ($i == name) n = $(i + 1) } END { print n }' "$2"; }
printf '%-14s %12s %10s %8s %8s %s\n' target executions execs/s cov ft result
for target in "${targets[@]}"; do
  corpus="$work/corpus/$target"
  mkdir -p "$corpus"
  cp Fuzz/Seeds/"$target"/* "$corpus"/ 2>/dev/null || true
  if [ -f "$vectors" ]; then
    python3 - "$vectors" "$target" "$corpus" <<'PY'
import binascii, json, sys
vectors, target, corpus = sys.argv[1:]
wanted = {"gt06": ["gt06"], "teltonika": ["teltonika"], "nmea": ["nmea-gprmc"], "osmand": ["osmand", "nmea-gprmc"]}
for vector in json.load(open(vectors)):
    if vector["protocol"] not in wanted.get(target, []):
        continue
    kind, payload = vector["kind"], vector["payload"]
    if target == "osmand" and not kind.startswith("http"):
        continue
    data = binascii.unhexlify(payload) if kind == "binary-hex" else payload.encode()
    if target == "nmea":
        data = b"TAXI-42," + data + b"\r\n"
    open(f"{corpus}/traccar-{vector['id']}", "wb").write(data)
PY
  fi
  # A graph file needs more room than a frame or a config file: its seed,
  # a four-node graph written by `mytaxi graph build`, has 1,112 bytes.
  max_len=1024
  [ "$target" = graph-file ] && max_len=4096
  limit=(-max_total_time="$seconds")
  [ -n "${RUNS:-}" ] && limit=(-runs="$RUNS")
  log="$work/$target.log"
  if SWIFT_BACKTRACE=enable=no MYTAXI_FUZZ_TARGET="$target" "$bin" "$corpus" "${limit[@]}" -rss_limit_mb=2048 -max_len="$max_len" \
      -artifact_prefix="$work/artifacts/$target-" -print_final_stats=1 >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log)"
    failed=1
  fi
  runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$log")
  rate=$(awk '/stat::average_exec_per_sec/ { print $2 }' "$log")
  cov=$(last_count cov "$log")
  ft=$(last_count ft "$log")
  printf '%-14s %12s %10s %8s %8s %s\n' "$target" "${runs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$result"
done
exit $failed
