#!/usr/bin/env bash
# What reading __consumer_offsets costs a one-shot command (issue 31, docs/testing.md "The
# commit log's cost"), on a Kafka 4.4.0 broker of its own: scripts/kafka.sh role commitlog,
# whose partition of __consumer_offsets gets WORLD_MB (default 40) MB of one busy group's
# commits between a group that consumed and left before them and one that did after
# (realkafka.SeedCommitLogWorld, franz-go; seeded once per broker, in about a minute).
#
#   OFFSETTUI_KAFKA_ROLE=commitlog scripts/kafka.sh start
#   eval "$(OFFSETTUI_KAFKA_ROLE=commitlog scripts/kafka.sh env)"
#   scripts/bench-commitlog.sh          # RUNS (25); BASE=path/to/another/offsettui: timed beside
#
# It prints:
#   - the bytes: TestRealKafkaCommitLogBounded's lines (cmd/offsettui), which count the Fetch
#     requests and the bytes of their answers as offsettui's client receives them (a fault
#     proxy in front of the broker), with --commit-log auto and off, for check and describe
#     --group of each group; that test also checks the answers and the bounds;
#   - the time: the built binary's `check --group G` and `describe --group G -o json`, with
#     --commit-log auto and off, RUNS runs of each in turn after a warm-up (wall time), for the
#     group that committed after the busy group's commits and the one before; the median
#     wall time with its range, and the median of the run-by-run ratios auto / off.
set -euo pipefail
cd "$(dirname "$0")/.."

: "${OFFSETTUI_IT_COMMITLOG_BOOTSTRAP:?start the commitlog broker and eval its env (see the header)}"
addr=$OFFSETTUI_IT_COMMITLOG_BOOTSTRAP
runs=${RUNS:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }

echo "== the world and the bytes (load: $(cut -d' ' -f1-3 /proc/loadavg))"
OFFSETTUI_COMMITLOG_WORLD_MB=${WORLD_MB:-40} go test -count=1 -run '^TestRealKafkaCommitLogBounded$' -v ./cmd/offsettui/ >"$tmp/test.log" 2>&1 \
  || { cat "$tmp/test.log" >&2; echo "TestRealKafkaCommitLogBounded failed" >&2; exit 1; }
grep -E 'seeded|partition [0-9]+ of __consumer_offsets holds|--commit-log auto' "$tmp/test.log" | sed 's/^ *realkafka_commitlog_test.go:[0-9]*: //'
recent=$(grep -o 'check --group [^ ]* (recent)' "$tmp/test.log" | awk '{print $3}')
old=$(grep -o 'check --group [^ ]* (old)' "$tmp/test.log" | awk '{print $3}')

go build -o "$tmp/offsettui" ./cmd/offsettui
bins=("$tmp/offsettui")
if [ -n "${BASE:-}" ]; then bins+=("$BASE"); fi

# timed NAME CMD...: one run; appends its wall seconds to $tmp/NAME (bash's clock, in
# microseconds: GNU time's 10 ms would be a fifth of a command this short).
timed() {
  local name=$1 t0
  shift
  t0=$EPOCHREALTIME
  "$@" >/dev/null 2>&1 || true
  awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.4f\n", b - a}' >>"$tmp/$name"
}

echo "== $runs runs each, in turn, after a warm-up (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq 0 "$runs"); do
  for b in "${!bins[@]}"; do
    for g in recent old; do
      group=${!g}
      for mode in auto off; do
        timed "$b-$g-check-$mode" "${bins[$b]}" check --bootstrap-server "$addr" --group "$group" --commit-log "$mode"
        timed "$b-$g-describe-$mode" "${bins[$b]}" describe --bootstrap-server "$addr" --group "$group" --commit-log "$mode" -o json
      done
    done
  done
  if [ "$i" = 0 ]; then rm -f "$tmp"/[0-9]-*; fi # the warm-up
done

echo "== medians (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
for b in "${!bins[@]}"; do
  echo "${bins[$b]##*/}$([ "$b" = 0 ] && echo " (this checkout)" || echo " (BASE)")"
  for g in recent old; do
    for cmd in check describe; do
      a="$tmp/$b-$g-$cmd-auto" o="$tmp/$b-$g-$cmd-off"
      printf '  %-8s %-6s --group %-12s auto %.3f s (%.3f–%.3f), off %.3f s: %.2f× run by run\n' "$cmd" "$g" "${!g}" \
        "$(median <"$a")" "$(sort -n "$a" | head -1)" "$(sort -n "$a" | tail -1)" "$(median <"$o")" \
        "$(paste -d' ' "$a" "$o" | awk '{print $1 / $2}' | median)"
    done
  done
done
