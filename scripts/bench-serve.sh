#!/usr/bin/env bash
# `offsettui serve` left running against a scale cluster (scripts/scale-cluster.sh:
# kfake, 3 brokers, SCALE_GROUPS groups each committed on all 50 partitions of one
# topic): every STEP it records the process's RSS, and scrapes /metrics once plain
# and once gzipped, with the time and size of each and the series count.
#
#   SCALE_GROUPS=10000 DURATION=1800 scripts/bench-serve.sh   # the fleet, 30 minutes
#
# Prints one line per step and a summary; serve snapshots at its default interval
# (30s) unless INTERVAL says otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-600}
step=${STEP:-60}
interval=${INTERVAL:-30s}
. scripts/scale-cluster.sh
start_scale_cluster

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$tmp/offsettui" serve --bootstrap-server "$addr" --listen "127.0.0.1:$port" --interval "$interval" 2>"$tmp/serve-exporter.log" &
exporter=$!
trap 'kill "$exporter" 2>/dev/null || true; wait "$exporter" 2>/dev/null || true; stop_scale_cluster' EXIT
url="http://127.0.0.1:$port"
for _ in $(seq 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$url/readyz" || true)" = 200 ] && break
  sleep 0.5
done
echo "== serve ready after its first snapshot (load: $(cut -d' ' -f1-3 /proc/loadavg))"
grep -E 'read \(|failed' "$tmp/serve-exporter.log" || true

# scrape OUT [CURL-FLAGS]: one GET of /metrics into OUT; prints "seconds bytes".
scrape() {
  local out=$1
  shift
  curl -s -o "$out" -w '%{time_total} %{size_download}\n' "$@" "$url/metrics"
}

printf '%8s %9s %12s %10s %12s %10s %9s %8s\n' elapsed rss-MiB scrape-s bytes gzip-s gzip-bytes series load
start=$(date +%s)
while :; do
  elapsed=$(( $(date +%s) - start ))
  rss=$(awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$exporter/status")
  read -r plain_s plain_b < <(scrape "$tmp/metrics")
  series=$(grep -vc '^#' "$tmp/metrics")
  read -r gz_s gz_b < <(scrape /dev/null --compressed)
  printf '%8s %9s %12s %10s %12s %10s %9s %8s\n' "$elapsed" "$rss" "$plain_s" "$plain_b" "$gz_s" "$gz_b" "$series" "$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$tmp/steps"
  [ "$elapsed" -ge "$duration" ] && break
  sleep "$step"
done

echo "== summary over ${duration}s"
awk '{print $2}' "$tmp/steps" | sort -n | sed -n '1p;$p' | paste -sd' ' | awk '{print "RSS MiB, min max: " $0}'
echo "scrape seconds, median: $(awk '{print $3}' "$tmp/steps" | median)"
echo "series (last): $(tail -1 "$tmp/steps" | awk '{print $7}'), of them offsettui_*: $(grep -c '^offsettui_' "$tmp/metrics")"
echo "failed snapshots logged: $(grep -c 'snapshot failed' "$tmp/serve-exporter.log" || true)"
echo "snapshot duration (last): $(grep '^offsettui_snapshot_duration_seconds' "$tmp/metrics" | awk '{print $2}') s"
