# Sourced by scripts/bench-process.sh and scripts/bench-tui.sh: builds the
# binaries and serves a scale cluster (kfake, 3 brokers, in a test binary,
# TestServeScaleCluster in internal/kafka/bench_test.go) for as long as the
# calling script runs.
#
#   SCALE_GROUPS=1000 (200 topics × 50 partitions) or SCALE_GROUPS=10000 (400 topics)
#   SCALE_BOOTSTRAP=host:port,...: a real cluster seeded beforehand instead of kfake
#
# After start_scale_cluster: $tmp (a scratch directory), $tmp/offsettui,
# $tmp/kafka.test and $addr (the bootstrap servers). The EXIT trap stops the
# cluster and removes $tmp.
# OFFSETTUI_TEST_TAGS passes build tags to the test binary (e.g. propstub).

groups=${SCALE_GROUPS:-1000}
tmp=$(mktemp -d)
server=""

stop_scale_cluster() {
  rm -f "$tmp/addr"
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    # Removing the address file ends the server; give it a moment first.
    for _ in $(seq 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap stop_scale_cluster EXIT

start_scale_cluster() {
  echo "== build"
  go build -o "$tmp/offsettui" ./cmd/offsettui
  go test -c -tags "${OFFSETTUI_TEST_TAGS:-}" -o "$tmp/kafka.test" ./internal/kafka
  if [ -n "${SCALE_BOOTSTRAP:-}" ]; then
    # A real cluster seeded beforehand (TestSeedScaleRealCluster, docs/testing.md).
    addr=$SCALE_BOOTSTRAP
    echo "== the real cluster at $addr ($groups groups, seeded beforehand)"
    return
  fi

  echo "== start the scale cluster ($groups groups)"
  local started
  started=$(date +%s%N)
  OFFSETTUI_SCALE_SERVE=1 OFFSETTUI_SCALE_GROUPS="$groups" OFFSETTUI_SCALE_ADDR_FILE="$tmp/addr" OFFSETTUI_SCALE_TIMEOUT=60m \
    "$tmp/kafka.test" -test.run '^TestServeScaleCluster$' -test.v -test.timeout 0 >"$tmp/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 1800); do
    [ -s "$tmp/addr" ] && break
    if ! kill -0 "$server" 2>/dev/null; then
      echo "the scale cluster exited early:" >&2
      cat "$tmp/serve.log" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [ ! -s "$tmp/addr" ]; then
    echo "the scale cluster did not start within 180 s" >&2
    cat "$tmp/serve.log" >&2
    exit 1
  fi
  addr=$(cat "$tmp/addr")
  echo "cluster at $addr, seeded in $(( ($(date +%s%N) - started) / 1000000 )) ms"
}

# median prints the median of the numbers on stdin.
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
