#!/usr/bin/env bash
# Whole-process timing and peak memory of the built binary against a scale
# cluster (scripts/scale-cluster.sh: kfake, 3 brokers, SCALE_GROUPS groups each
# committed on all 50 partitions of one topic), beside the reference: a
# batched describe written with franz-go's admin client
# (internal/kafka/reference_test.go), in the same run, on the same cluster.
# First every row of the two JSON outputs is compared (low, high, committed,
# lag, state, members, retention).
#
#   scripts/bench-process.sh                      # 1,000 groups, 10 runs each
#   SCALE_GROUPS=10000 RUNS=7 scripts/bench-process.sh  # the fleet: 500,000 rows
#   SCALE_BOOTSTRAP=127.0.0.1:19100,... SCALE_GROUPS=10000 scripts/bench-process.sh
#                                                 # a real cluster seeded beforehand
#                                                 # (docs/testing.md); with OFFSETTUI_KAFKA_LIB
#                                                 # set, kafka-consumer-groups --describe
#                                                 # --all-groups is timed too (CGC_RUNS, 3)
#
# Timed, in turn (json, table, one group, reference, json, …) so that a
# drift of the machine's speed touches all alike: `describe -o json` of all
# groups, `describe` (the table) of all groups, `describe --group G -o json`
# of one 50-partition group, and the reference. Each figure is the median
# wall time with its range and the median peak RSS (GNU time); the ratios
# are medians of the run-by-run ratios. The cluster runs on the same machine
# and competes for its cores, as it would in any local measurement.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-10}
. scripts/scale-cluster.sh
start_scale_cluster
case "$groups" in
  1000) one=g0500 ;;
  10000) one=g5000 ;;
  *) echo "SCALE_GROUPS: 1000 or 10000" >&2; exit 2 ;;
esac
rows=$((groups * 50))

json=("$tmp/offsettui" describe --bootstrap-server "$addr" -o json)
table=("$tmp/offsettui" describe --bootstrap-server "$addr")
single=("$tmp/offsettui" describe --bootstrap-server "$addr" --group "$one" -o json)
reference=(env OFFSETTUI_REFERENCE_BOOTSTRAP="$addr" OFFSETTUI_REFERENCE_OUT=- "$tmp/kafka.test" -test.run '^TestReferenceProcess$')

echo "== agreement with the reference"
"${json[@]}" >"$tmp/offsettui.json"
OFFSETTUI_REFERENCE_BOOTSTRAP="$addr" OFFSETTUI_REFERENCE_OUT="$tmp/reference.json" \
  "$tmp/kafka.test" -test.run '^TestReferenceProcess$' >/dev/null
if ! OFFSETTUI_COMPARE="$tmp/offsettui.json,$tmp/reference.json" OFFSETTUI_COMPARE_ROWS="$rows" \
  "$tmp/kafka.test" -test.run '^TestCompareOutputs$' -test.v >"$tmp/compare.log" 2>&1; then
  cat "$tmp/compare.log" >&2
  echo "offsettui and the reference disagree" >&2
  exit 1
fi
grep -o '[0-9]* rows agree' "$tmp/compare.log"
"${single[@]}" >"$tmp/one.json"
jq -e --arg g "$one" '(.groups | length) == 1 and .groups[0].group == $g and (.groups[0].partitions | length) == 50 and (.errors | length) == 0' "$tmp/one.json" >/dev/null \
  || { echo "describe --group $one is not one group of 50 partitions without errors" >&2; exit 1; }
echo "all groups: $(wc -c <"$tmp/offsettui.json") bytes of JSON; one group: $(wc -c <"$tmp/one.json") bytes"

# timed NAME CMD...: one run; appends "wall-seconds peak-KiB" to $tmp/NAME.
timed() {
  local name=$1
  shift
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f "%e %M" -o "$tmp/last" "$@" >/dev/null
    cat "$tmp/last" >>"$tmp/$name"
  else
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null
    t1=$(date +%s%N)
    awk -v d=$((t1 - t0)) 'BEGIN {printf "%.3f ?\n", d / 1e9}' >>"$tmp/$name"
  fi
}

echo "== $runs runs each, in turn, after a warm-up (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for i in $(seq 0 "$runs"); do
  timed json "${json[@]}"
  timed table "${table[@]}"
  timed one "${single[@]}"
  timed reference "${reference[@]}"
  if [ "$i" = 0 ]; then rm -f "$tmp/json" "$tmp/table" "$tmp/one" "$tmp/reference"; fi # the warm-up
done

# summary NAME LABEL: median wall with min–max, median peak RSS.
summary() {
  local med lo hi rss
  med=$(cut -d' ' -f1 "$tmp/$1" | median)
  lo=$(cut -d' ' -f1 "$tmp/$1" | sort -n | head -1)
  hi=$(cut -d' ' -f1 "$tmp/$1" | sort -n | tail -1)
  rss=$(cut -d' ' -f2 "$tmp/$1" | median | awk '{ if ($1 == "?") print "?"; else printf "%.0f", $1 / 1024 }')
  printf '%-44s %7.3f s (%.3f–%.3f)  peak %s MiB\n' "$2" "$med" "$lo" "$hi" "$rss"
}
# ratio A B: the median of the run-by-run ratios of wall time (1) or peak RSS (2).
ratio() { paste -d' ' "$tmp/$1" "$tmp/$2" | awk -v f="$3" '{ if (f == 1) print $1 / $3; else print $2 / $4 }' | median; }

# Kafka's own tool, as kafka-consumer-groups.sh runs it (kafka-run-class.sh's heap and GC).
if [ -n "${OFFSETTUI_KAFKA_LIB:-}" ]; then
  cgc=(java -Xmx256M -server -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true
    "-Dlog4j2.configurationFile=${OFFSETTUI_KAFKA_TOOLS_LOG4J:-}" -cp "$OFFSETTUI_KAFKA_LIB/*"
    org.apache.kafka.tools.consumer.group.ConsumerGroupCommand --bootstrap-server "$addr" --describe --all-groups)
  "${cgc[@]}" >"$tmp/cgc.out" 2>"$tmp/cgc.err" || true
  echo "kafka-consumer-groups --describe --all-groups: $(grep -c . "$tmp/cgc.out") lines, $(grep -c '^Error\|Exception' "$tmp/cgc.err" "$tmp/cgc.out" | paste -sd' ') errors"
  for _ in $(seq "${CGC_RUNS:-3}"); do timed cgc "${cgc[@]}"; done
fi

echo "== medians (load after: $(cut -d' ' -f1-3 /proc/loadavg))"
summary json "describe -o json, all $groups groups"
summary table "describe (table), all $groups groups"
summary one "describe --group $one -o json"
summary reference "reference (franz-go kadm), all $groups groups"
if [ -s "$tmp/cgc" ]; then summary cgc "kafka-consumer-groups --describe --all-groups"; fi
printf 'json / reference: time %.2f×, peak memory %.2f×\n' "$(ratio json reference 1)" "$(ratio json reference 2)"
printf 'table / json:     time %.2f×\n' "$(ratio table json 1)"
