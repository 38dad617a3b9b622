#!/usr/bin/env bash
# Whole-process timing of the built binary against the scale cluster of issue 2
# (kfake, 3 brokers, 200 topics × 50 partitions, 1,000 groups each committed on
# all 50 partitions of one topic), served in-process by TestServeScaleCluster.
#
#   scripts/bench-process.sh            # 10 runs each
#   RUNS=20 scripts/bench-process.sh
#
# Times `offsettui describe -o json` for all groups and `--group g0500 -o json`
# for one 50-partition group, with hyperfine when installed (else a bash loop),
# and prints the medians. Targets: all groups under 1.5 s, one group at most
# 25 ms. The cluster runs in the same machine and competes for its cores, as it
# would in any local measurement.
# OFFSETTUI_TEST_TAGS passes build tags to the test binary (e.g. propstub).
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-10}
group=g0500
tmp=$(mktemp -d)
server=""

cleanup() {
  rm -f "$tmp/addr"
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    # Removing the address file ends the server; give it a moment first.
    for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "== build"
go build -o "$tmp/offsettui" ./cmd/offsettui
go test -c -tags "${OFFSETTUI_TEST_TAGS:-}" -o "$tmp/kafka.test" ./internal/kafka

echo "== start the scale cluster"
started=$(date +%s%N)
OFFSETTUI_SCALE_SERVE=1 OFFSETTUI_SCALE_ADDR_FILE="$tmp/addr" OFFSETTUI_SCALE_TIMEOUT=30m \
  "$tmp/kafka.test" -test.run '^TestServeScaleCluster$' -test.v -test.timeout 0 >"$tmp/serve.log" 2>&1 &
server=$!
for _ in $(seq 1200); do
  [ -s "$tmp/addr" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "the scale cluster exited early:" >&2
    cat "$tmp/serve.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [ ! -s "$tmp/addr" ]; then
  echo "the scale cluster did not start within 120 s" >&2
  cat "$tmp/serve.log" >&2
  exit 1
fi
addr=$(cat "$tmp/addr")
echo "cluster at $addr, seeded in $(( ($(date +%s%N) - started) / 1000000 )) ms"

all=("$tmp/offsettui" describe --bootstrap-server "$addr" -o json)
one=("$tmp/offsettui" describe --bootstrap-server "$addr" --group "$group" -o json)

echo "== sanity"
"${all[@]}" >"$tmp/all.json"
"${one[@]}" >"$tmp/one.json"
jq -e --argjson n 1000 '(.groups | length) == $n and (.errors | length) == 0 and ([.groups[].partitions | length] | add) == 50000' "$tmp/all.json" >/dev/null \
  || { echo "describe (all groups) is not the expected 1,000 groups × 50 partitions without errors" >&2; exit 1; }
jq -e --arg g "$group" '(.groups | length) == 1 and .groups[0].group == $g and (.groups[0].partitions | length) == 50 and (.errors | length) == 0' "$tmp/one.json" >/dev/null \
  || { echo "describe --group $group is not one group of 50 partitions without errors" >&2; exit 1; }
echo "all groups: $(wc -c <"$tmp/all.json") bytes of JSON; one group: $(wc -c <"$tmp/one.json") bytes"

# median_ms prints the median of the millisecond figures on stdin.
median_ms() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.1f\n", (a[NR/2]+a[NR/2+1])/2}'; }

if command -v hyperfine >/dev/null; then
  echo "== hyperfine ($runs runs each, 2 warm-ups)"
  hyperfine --warmup 2 --runs "$runs" --style basic --export-json "$tmp/h-all.json" -N "${all[*]}"
  hyperfine --warmup 2 --runs "$runs" --style basic --export-json "$tmp/h-one.json" -N "${one[*]}"
  med_all=$(jq '.results[0].times[] * 1000' "$tmp/h-all.json" | median_ms)
  med_one=$(jq '.results[0].times[] * 1000' "$tmp/h-one.json" | median_ms)
else
  echo "== bash loop ($runs runs each, 2 warm-ups; hyperfine not installed)"
  time_ms() {
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    awk -v d=$((t1 - t0)) 'BEGIN {printf "%.1f\n", d / 1e6}'
  }
  for _ in 1 2; do "${all[@]}" >/dev/null; "${one[@]}" >/dev/null; done
  med_all=$(for _ in $(seq "$runs"); do time_ms "${all[@]}"; done | median_ms)
  med_one=$(for _ in $(seq "$runs"); do time_ms "${one[@]}"; done | median_ms)
fi

echo "== medians"
printf 'describe -o json, all %d groups:        %8.1f ms  (target < 1500 ms)\n' 1000 "$med_all"
printf 'describe --group %s -o json:        %8.1f ms  (target <= 25 ms)\n' "$group" "$med_one"
