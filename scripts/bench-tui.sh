#!/usr/bin/env bash
# The TUI against a scale cluster (scripts/scale-cluster.sh), as a user sees
# it in a terminal (tmux, 200×50):
#
#   - first screen: from the start of the process to the first group row on
#     screen (the groups listed, offsets still loading), and to the whole
#     snapshot ("with problems" in the title); RUNS runs, medians;
#   - soak: SOAK seconds (default 300) of refreshes every 5 s; the process's
#     RSS every 5 s and the Go heap after each collection (GODEBUG=gctrace=1)
#     are written to $OUT (default ./bench-tui-soak.txt) and summarised per
#     minute.
#
#   SCALE_GROUPS=10000 scripts/bench-tui.sh
#   SCALE_GROUPS=10000 SOAK=0 scripts/bench-tui.sh   # first screen only
#
# Needs tmux. Times are polled every 20 ms, so they are that coarse.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${RUNS:-5}
soak=${SOAK:-300}
out=${OUT:-$PWD/bench-tui-soak.txt}
command -v tmux >/dev/null || { echo "bench-tui.sh needs tmux" >&2; exit 2; }
. scripts/scale-cluster.sh
start_scale_cluster
session=offsettui-bench-$$

# tui ARGS...: starts the TUI in a detached tmux session (once more after a
# moment if the tmux server was just going away).
tui() {
  tmux new-session -d -s "$session" -x 200 -y 50 "$*" 2>/dev/null ||
    { sleep 0.5; tmux new-session -d -s "$session" -x 200 -y 50 "$*"; }
}

# first_screen: prints "ms-to-first-row ms-to-whole-snapshot".
first_screen() {
  local t0 now screen first="" whole=""
  t0=$(date +%s%N)
  tui "$tmp/offsettui --bootstrap-server $addr --refresh 0 2>/dev/null"
  for _ in $(seq 3000); do
    screen=$(tmux capture-pane -p -t "$session" 2>/dev/null || true)
    now=$(date +%s%N)
    if [ -z "$first" ] && grep -q '^[▸ ] g[0-9]' <<<"$screen"; then first=$(((now - t0) / 1000000)); fi
    if grep -q 'with problems' <<<"$screen"; then whole=$(((now - t0) / 1000000)); break; fi
    sleep 0.02
  done
  tmux kill-session -t "$session" 2>/dev/null || true
  echo "${first:-?} ${whole:-?}"
}

echo "== first screen, $runs runs (load: $(cut -d' ' -f1-3 /proc/loadavg))"
for _ in $(seq "$runs"); do first_screen; done >"$tmp/first"
cat "$tmp/first"
printf 'median: first group row %s ms, whole snapshot %s ms\n' "$(cut -d' ' -f1 "$tmp/first" | median)" "$(cut -d' ' -f2 "$tmp/first" | median)"

[ "$soak" -gt 0 ] || exit 0
echo "== soak: $soak s of refreshes every 5 s (load: $(cut -d' ' -f1-3 /proc/loadavg))"
tui "GODEBUG=gctrace=1 $tmp/offsettui --bootstrap-server $addr --refresh 5s 2>$tmp/gctrace"
pid=""
for _ in $(seq 50); do
  pid=$(pgrep -n -f "^$tmp/offsettui --bootstrap-server") && break
  sleep 0.1
done
[ -n "$pid" ] || { echo "the TUI did not start" >&2; exit 1; }
: >"$out"
t0=$(date +%s)
while [ $(($(date +%s) - t0)) -lt "$soak" ] && kill -0 "$pid" 2>/dev/null; do
  echo "rss $(($(date +%s) - t0)) $(awk '/VmRSS/ {print $2}' "/proc/$pid/status")" >>"$out"
  sleep 5
done
tmux send-keys -t "$session" q
sleep 1
tmux kill-session -t "$session" 2>/dev/null || true
# gctrace: "gc N @T.s …, A->B->C MB, …": C is the heap left live after collection N.
awk '/^gc [0-9]+ @/ { t = $3; sub("@", "", t); sub("s", "", t); for (i = 1; i <= NF; i++) if ($i ~ /->.*->/) { split($i, h, "->"); print "heap", int(t), h[3] } }' \
  "$tmp/gctrace" >>"$out"
echo "per minute: max RSS (MiB) and max live heap after GC (MB)"
awk '{ m = int($2 / 60); if ($1 == "rss" && $3 / 1024 > r[m]) r[m] = $3 / 1024; if ($1 == "heap" && $3 > h[m]) h[m] = $3; if (m > last) last = m }
  END { for (m = 0; m <= last; m++) printf "minute %d: RSS %.0f, live heap %d\n", m + 1, r[m], h[m] }' "$out"
echo "samples in $out"
