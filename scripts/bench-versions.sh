#!/usr/bin/env bash
# offsettui on an old broker against a new one (docs/testing.md "Speed on old brokers"): the
# whole-process time of `describe -o json` of 1,000 groups × 10 partitions on Kafka 2.8.2 (with
# ZooKeeper; OffsetFetch takes one group per request there) and on Kafka 4.4.0 (500 groups per
# request), RUNS runs each (default 5), interleaved, after a warm-up; the medians and their
# ratio, which the version matrix holds to at most 2.
#
#   scripts/bench-versions.sh
#
# It starts both brokers itself with scripts/kafka.sh — 2.8.2 as the v28 role, 4.4.0 as the v39
# role's layout (one PLAINTEXT listener) — on BENCH_OLD_PORT (default 19152, ZooKeeper two below)
# and BENCH_NEW_PORT (default 19192), each with a state dir of its own, seeds them
# (TestSeedVersionBench, internal/kafka/bench_versions_test.go) and stops them at the end. Both
# are fresh: the only groups are the benchmark's. Each output is checked first: 1,000 groups,
# 10,000 rows, every committed offset the seeding's, no error.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-5}
old_port=${BENCH_OLD_PORT:-19152}
new_port=${BENCH_NEW_PORT:-19192}
tmp=$(mktemp -d)
old_state="$tmp/kafka-2.8.2" new_state="$tmp/kafka-4.4.0"
old=(env OFFSETTUI_KAFKA_ROLE=v28 OFFSETTUI_KAFKA_PORT="$old_port" OFFSETTUI_KAFKA_STATE="$old_state")
new=(env OFFSETTUI_KAFKA_ROLE=v39 OFFSETTUI_KAFKA_VERSION=4.4.0 OFFSETTUI_KAFKA_PORT="$new_port" OFFSETTUI_KAFKA_STATE="$new_state")
cleanup() {
  "${old[@]}" scripts/kafka.sh stop >/dev/null 2>&1 || true
  "${new[@]}" scripts/kafka.sh stop >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT

echo "== starting Kafka 2.8.2 (ZooKeeper) on $old_port and Kafka 4.4.0 on $new_port"
export OFFSETTUI_KAFKA_START_TIMEOUT=${OFFSETTUI_KAFKA_START_TIMEOUT:-240}
"${old[@]}" scripts/kafka.sh start &
old_pid=$!
"${new[@]}" scripts/kafka.sh start &
new_pid=$!
go build -o "$tmp/offsettui" ./cmd/offsettui
go test -c -o "$tmp/kafka.test" ./internal/kafka
wait "$old_pid"
wait "$new_pid"
for port in "$old_port" "$new_port"; do
  OFFSETTUI_BENCH_SEED_BOOTSTRAP="127.0.0.1:$port" "$tmp/kafka.test" -test.run '^TestSeedVersionBench$' -test.v | grep -E 'seeded|FAIL|ok' || true
done

# check VERSION PORT: the output is the seeded fleet, whole.
check() {
  "$tmp/offsettui" describe --bootstrap-server "127.0.0.1:$2" -o json >"$tmp/$1.json"
  jq -e '(.groups | length) == 1000 and ([.groups[].partitions[]] | length) == 10000 and (.errors | length) == 0
         and all(.groups[]; .error == null)' "$tmp/$1.json" >/dev/null \
    || { echo "describe on Kafka $1 is not the seeded fleet (1,000 groups, 10,000 rows, no error)" >&2; exit 1; }
  jq -e 'all(.groups[]; (.group | ltrimstr("bench-g") | tonumber) as $g
           | all(.partitions[]; .committed == (($g + .partition) % 11)))' "$tmp/$1.json" >/dev/null \
    || { echo "describe on Kafka $1: a committed offset is not the seeding's" >&2; exit 1; }
  echo "Kafka $1: $(jq -r '.cluster.kafkaVersion' "$tmp/$1.json") line, missing: $(jq -r '[.cluster.capabilities[].missing] | join(", ")' "$tmp/$1.json")"
}
check 2.8.2 "$old_port"
check 4.4.0 "$new_port"

timed() {
  local name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$tmp/last" "$@" >/dev/null
  cat "$tmp/last" >>"$tmp/$name"
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "== $runs runs each, interleaved, after a warm-up (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq 0 "$runs"); do
  timed old "$tmp/offsettui" describe --bootstrap-server "127.0.0.1:$old_port" -o json
  timed new "$tmp/offsettui" describe --bootstrap-server "127.0.0.1:$new_port" -o json
  if [ "$i" = 0 ]; then rm -f "$tmp/old" "$tmp/new"; fi
done
o=$(cut -d' ' -f1 "$tmp/old" | median) n=$(cut -d' ' -f1 "$tmp/new" | median)
echo "== medians (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
printf 'Kafka 2.8.2: describe -o json %.2f s (runs: %s), peak %s MiB\n' "$o" "$(cut -d' ' -f1 "$tmp/old" | paste -sd' ')" "$(cut -d' ' -f2 "$tmp/old" | median | awk '{printf "%.0f", $1 / 1024}')"
printf 'Kafka 4.4.0: describe -o json %.2f s (runs: %s), peak %s MiB\n' "$n" "$(cut -d' ' -f1 "$tmp/new" | paste -sd' ')" "$(cut -d' ' -f2 "$tmp/new" | median | awk '{printf "%.0f", $1 / 1024}')"
awk -v o="$o" -v n="$n" 'BEGIN { r = o / n; printf "2.8.2 / 4.4.0: %.2f× (the bar: at most 2×)\n", r; exit (r > 2) }'
