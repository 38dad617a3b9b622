# Shared by scripts/kafka.sh's single node and its three-node cluster (scripts/lib/kafka-cluster.sh):
# the jars, the Kafka CLI tools, the JVM launch, and the server.properties lines both use.
# Sourced, never run; the caller has set -euo pipefail.

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)"
REPO_DIR="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
KAFKA_CONF_DIR="$REPO_DIR/test/kafka"
POM="$KAFKA_CONF_DIR/pom.xml"
TIERED_POM="$KAFKA_CONF_DIR/tiered-pom.xml"
SHIM_SRC="$KAFKA_CONF_DIR/shim/org/apache/kafka/common/utils/LogContext.java"
SHAPES_SRC="$KAFKA_CONF_DIR/Shapes.java"
BROKER_LOG4J="$KAFKA_CONF_DIR/log4j2-broker.properties"
TOOLS_LOG4J="$KAFKA_CONF_DIR/log4j2-tools.properties"

# The role picks the single node's default version and port and the names 'env' exports (see
# scripts/kafka.sh); the cluster runs the main role's version.
ROLE="${OFFSETTUI_KAFKA_ROLE:-main}"
case "$ROLE" in
  main) DEFAULT_VERSION=4.4.0 DEFAULT_PORT=19092 ENV_PREFIX=OFFSETTUI_IT_ ;;
  oldest) DEFAULT_VERSION=4.0.0 DEFAULT_PORT=19112 ENV_PREFIX=OFFSETTUI_IT_OLDEST_ ;;
  timers) DEFAULT_VERSION=4.4.0 DEFAULT_PORT=19132 ENV_PREFIX=OFFSETTUI_IT_TIMERS_ ;;
  commitlog) DEFAULT_VERSION=4.4.0 DEFAULT_PORT=19232 ENV_PREFIX=OFFSETTUI_IT_COMMITLOG_ ;;
  # The version matrix (scripts/lib/kafka-matrix.sh): older lines, PLAINTEXT only.
  v28) DEFAULT_VERSION=2.8.2 DEFAULT_PORT=19152 ENV_PREFIX=OFFSETTUI_IT_V28_ ;;
  v37) DEFAULT_VERSION=3.7.2 DEFAULT_PORT=19172 ENV_PREFIX=OFFSETTUI_IT_V37_ ;;
  v39) DEFAULT_VERSION=3.9.1 DEFAULT_PORT=19192 ENV_PREFIX=OFFSETTUI_IT_V39_ ;;
  *) echo "kafka.sh: OFFSETTUI_KAFKA_ROLE must be main, oldest, timers, commitlog, v28, v37 or v39, got '$ROLE'" >&2; exit 2 ;;
esac
# matrix_role: the roles of the version matrix (one PLAINTEXT listener; 2.8.2 with ZooKeeper).
matrix_role() { [[ "$ROLE" == v28 || "$ROLE" == v37 || "$ROLE" == v39 ]]; }
VERSION="${OFFSETTUI_KAFKA_VERSION:-$DEFAULT_VERSION}"
HOST=127.0.0.1
CACHE_HOME="${OFFSETTUI_KAFKA_HOME:-${HOME:-/tmp}/.cache/offsettui-kafka}"
POM_SUM="$(sha256sum "$POM" | cut -c1-12)"
LIB="$CACHE_HOME/$VERSION/$POM_SUM/lib"
# test/kafka/Shapes.java compiled against $LIB, once per source digest.
SHAPES_CLASSES="$CACHE_HOME/$VERSION/$POM_SUM/shapes-$(sha256sum "$SHAPES_SRC" | cut -c1-12)"
TIERED_LIB="$CACHE_HOME/tiered/$(sha256sum "$TIERED_POM" | cut -c1-12)/lib"
START_TIMEOUT="${OFFSETTUI_KAFKA_START_TIMEOUT:-60}"
if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi
# Short-lived CLI JVMs start noticeably faster with these; they change nothing else.
TOOL_JAVA_OPTS=(-Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xshare:auto)

log() { echo "kafka.sh: $*" >&2; }
die() { echo "kafka.sh: error: $*" >&2; exit 1; }
now() { echo "${EPOCHREALTIME:-$(date +%s.%N)}"; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

need() {
  command -v "$1" >/dev/null 2>&1 || die "'$1' not found on PATH ($2)"
}

# check_port NAME VALUE: VALUE must be a port number (it and the ports after it are used).
check_port() {
  if ! [[ "$2" =~ ^[0-9]+$ ]] || (($2 < 1 || $2 > 65500)); then
    echo "kafka.sh: $1 must be a port number below 65500, got '$2'" >&2
    exit 2
  fi
}

# fetch_jars: copy the broker, tool and log4j jars into $LIB once. The lib dir is rebuilt when
# test/kafka/pom.xml changes (its sha256 is kept in lib/.complete).
fetch_jars() {
  local sum tmp t0
  sum="$(sha256sum "$POM" | cut -d' ' -f1)"
  if [[ -f "$LIB/.complete" && "$(cat "$LIB/.complete")" == "$sum" ]]; then
    return 0
  fi
  need mvn "needed once to fetch the Kafka jars from Maven Central"
  mkdir -p "$(dirname "$LIB")"
  tmp="$(mktemp -d "$LIB.tmp.XXXXXX")"
  chmod 755 "$tmp"
  t0="$(now)"
  log "fetching Kafka $VERSION jars into $LIB (mvn dependency:copy-dependencies) ..."
  # Debian's mvn prints colour escapes on stdout even with -q -B: keep all of it off our stdout.
  if ! mvn -q -B -f "$POM" -Dkafka.version="$VERSION" \
      dependency:copy-dependencies -DoutputDirectory="$tmp" >"$tmp.mvn.log" 2>&1; then
    cat "$tmp.mvn.log" >&2
    rm -rf "$tmp" "$tmp.mvn.log"
    die "mvn could not fetch the Kafka $VERSION jars (see above)"
  fi
  rm -f "$tmp.mvn.log"
  ls "$tmp"/kafka_2.13-*.jar "$tmp"/kafka-tools-*.jar >/dev/null 2>&1 \
    || { rm -rf "$tmp"; die "mvn finished but kafka_2.13/kafka-tools jars are missing"; }
  echo "$sum" >"$tmp/.complete"
  rm -rf "$LIB"
  mv "$tmp" "$LIB"
  log "fetched $(find "$LIB" -name '*.jar' | wc -l) jars in $(elapsed "$t0")s"
}

# fetch_all: every jar this role needs, and the compiled shapes.
fetch_all() {
  with_lock "$(dirname "$LIB")" fetch_jars
  with_lock "$(dirname "$LIB")" compile_shapes
  if [[ "$ROLE" == timers ]]; then
    with_lock "$(dirname "$TIERED_LIB")" fetch_tiered
  fi
}

# with_lock DIR CMD...: run CMD holding an exclusive lock on DIR/.lock, so brokers started in
# parallel (CI starts three) never fetch or compile into the same cache dir at once.
with_lock() {
  local dir="$1"
  shift
  mkdir -p "$dir"
  if command -v flock >/dev/null 2>&1; then
    (flock 9 && "$@") 9>"$dir/.lock"
  else
    "$@"
  fi
}

# fetch_tiered: Kafka 4.3.1's kafka-storage test jar (LocalTieredStorage) into $TIERED_LIB once.
fetch_tiered() {
  local sum tmp
  sum="$(sha256sum "$TIERED_POM" | cut -d' ' -f1)"
  if [[ -f "$TIERED_LIB/.complete" && "$(cat "$TIERED_LIB/.complete")" == "$sum" ]]; then
    return 0
  fi
  need mvn "needed once to fetch Kafka's LocalTieredStorage test jar"
  tmp="$(mktemp -d "$TIERED_LIB.tmp.XXXXXX")"
  chmod 755 "$tmp"
  log "fetching Kafka's LocalTieredStorage (kafka-storage 4.3.1 test jar) into $TIERED_LIB ..."
  if ! mvn -q -B -f "$TIERED_POM" dependency:copy-dependencies -DoutputDirectory="$tmp" >"$tmp.mvn.log" 2>&1; then
    cat "$tmp.mvn.log" >&2
    rm -rf "$tmp" "$tmp.mvn.log"
    die "mvn could not fetch the kafka-storage test jar (see above)"
  fi
  rm -f "$tmp.mvn.log"
  ls "$tmp"/kafka-storage-*-test.jar >/dev/null 2>&1 || { rm -rf "$tmp"; die "mvn finished but the kafka-storage test jar is missing"; }
  echo "$sum" >"$tmp/.complete"
  rm -rf "$TIERED_LIB"
  mv "$tmp" "$TIERED_LIB"
}

# compile_shapes: test/kafka/Shapes.java compiled once against $LIB into $SHAPES_CLASSES.
compile_shapes() {
  local tmp
  [[ -f "$SHAPES_CLASSES/Shapes.class" ]] && return 0
  need javac "the shapes of the real-broker tests (test/kafka/Shapes.java) are compiled with it (it comes with the JDK)"
  tmp="$(mktemp -d "$SHAPES_CLASSES.tmp.XXXXXX")"
  if ! javac -nowarn -d "$tmp" -cp "$LIB/*" "$SHAPES_SRC" >"$tmp.log" 2>&1; then
    cat "$tmp.log" >&2
    rm -rf "$tmp" "$tmp.log"
    die "javac could not compile $SHAPES_SRC against the Kafka $VERSION jars"
  fi
  rm -f "$tmp.log"
  chmod 755 "$tmp"
  rm -rf "$SHAPES_CLASSES"
  mv "$tmp" "$SHAPES_CLASSES"
}

# tool_cmd MAIN args...: the command line of a Kafka CLI main class with the jars and the
# tools' log4j config (log output at WARN+ on stderr only).
tool_cmd=()
set_tool_cmd() {
  tool_cmd=("$JAVA" "${TOOL_JAVA_OPTS[@]}" -Dlog4j2.configurationFile="$TOOLS_LOG4J" -cp "$LIB/*" "$@")
}
run_tool() {
  set_tool_cmd "$@"
  "${tool_cmd[@]}"
}

# live_pid PIDFILE CONFIG [MAIN]: the pid in PIDFILE, if that process is alive and is a MAIN
# (default kafka.Kafka) started with CONFIG (a recycled pid is never taken for our broker).
live_pid() {
  local pid
  [[ -f "$1" ]] || return 1
  pid="$(cat "$1" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF "${3:-kafka.Kafka} $2" || return 1
  echo "$pid"
}

# wait_gone PID TENTHS: wait up to TENTHS tenths of a second for PID to exit; false if it did not.
wait_gone() {
  local i
  for ((i = 0; i < $2; i++)); do
    kill -0 "$1" 2>/dev/null || return 0
    sleep 0.1
  done
  ! kill -0 "$1" 2>/dev/null
}

# remove_state DIR: a state dir is removed by start and stop, only ever one that this script
# created (marked).
remove_state() {
  [[ -e "$1" ]] || return 0
  [[ -f "$1/.offsettui-kafka-state" ]] \
    || die "refusing to remove $1: not a state dir made by kafka.sh (no .offsettui-kafka-state)"
  rm -rf "$1"
}

# new_state DIR: a fresh, marked state dir.
new_state() {
  remove_state "$1"
  mkdir -p "$1"
  touch "$1/.offsettui-kafka-state"
}

port_in_use() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

# features_args: the --feature argument for StorageTool format that switches share groups on
# where the version knows share.version but leaves it at 0 (4.1). Newer versions have share and
# streams groups on by default (4.4: share.version=2, streams.version=1); 4.0 has neither, and
# 4.1's streams.version=1 is not a stable level (format refuses it), so streams groups need 4.2+.
features_args() {
  local mapping
  mapping="$(run_tool kafka.tools.StorageTool version-mapping 2>/dev/null)" || return 0
  if grep -qx 'share.version=0' <<<"$mapping"; then
    printf '%s\n%s\n' --feature share.version=1
  fi
}

# launch_broker DIR CLASSPATH JVM-ARGS...: start kafka.Kafka on DIR/server.properties in the
# background, logging into DIR, and write DIR/broker.pid. setsid: the broker must outlive this
# script (and the shell that ran it).
launch_broker() {
  local dir="$1" classpath="$2"
  shift 2
  launch_java "$dir" broker "$classpath" kafka.Kafka "$dir/server.properties" "$@"
}

# launch_java DIR NAME CLASSPATH MAIN CONFIG JVM-ARGS...: start MAIN on CONFIG in the background,
# logging into DIR (server.log, NAME.out), and write DIR/NAME.pid.
launch_java() {
  local dir="$1" name="$2" classpath="$3" main="$4" config="$5" launcher=()
  shift 5
  command -v setsid >/dev/null 2>&1 && launcher=(setsid)
  "${launcher[@]}" "$JAVA" -XX:+UseG1GC -Djava.awt.headless=true "$@" \
    -Dlog4j2.configurationFile="$BROKER_LOG4J" -Dkafka.logs.dir="$dir" \
    -cp "$classpath" "$main" "$config" \
    </dev/null >>"$dir/$name.out" 2>&1 &
  echo $! >"$dir/$name.pid"
}

# show_logs DIR: the first errors and the last lines of a broker's logs, on stderr.
show_logs() {
  local f
  if [[ -s "$1/server.log" ]]; then
    # The cause is usually the first ERROR; the tail is mostly shutdown chatter.
    echo "----- first errors in $1/server.log -----" >&2
    grep -m 20 -E ' (ERROR|FATAL) ' "$1/server.log" >&2 || echo "(none)" >&2
  fi
  for f in "$1/server.log" "$1/broker.out"; do
    if [[ -s "$f" ]]; then
      echo "----- last 40 lines of $f -----" >&2
      tail -n 40 "$f" >&2
    fi
  done
}

# group_settings: the server.properties lines of groups and retention both layouts share.
group_settings() {
  cat <<EOF2
# Groups. group.coordinator.rebalance.protocols is left at its default: every protocol the
# version has (classic, consumer and, from 4.1, streams); share groups are switched on by the
# share.version feature (see features_args).
group.initial.rebalance.delay.ms=0
# Let tests use short session timeouts: classic clients via session.timeout.ms, consumer-protocol
# groups via the per-group configs consumer.session.timeout.ms / consumer.heartbeat.interval.ms
# (kafka.admin.ConfigCommand --entity-type groups). Broker defaults themselves are unchanged.
group.min.session.timeout.ms=1000
group.consumer.min.session.timeout.ms=1000
group.consumer.min.heartbeat.interval.ms=500
# Share and streams members join and leave within a second or two instead of 5-45 s. Versions
# without these groups ignore the keys (with a warning in the log).
group.share.min.heartbeat.interval.ms=500
group.share.heartbeat.interval.ms=1000
group.share.min.session.timeout.ms=1000
group.share.session.timeout.ms=10000
group.streams.min.heartbeat.interval.ms=500
group.streams.heartbeat.interval.ms=1000
group.streams.min.session.timeout.ms=1000
group.streams.session.timeout.ms=10000
group.streams.initial.rebalance.delay.ms=0

# Fast retention for tests: a topic with a tiny retention.ms empties within about a second.
log.retention.check.interval.ms=1000
log.initial.task.delay.ms=0
log.segment.delete.delay.ms=1000
EOF2
}

# extra_config: OFFSETTUI_KAFKA_EXTRA_CONFIG's lines, appended last to a server.properties.
extra_config() {
  if [[ -n "${OFFSETTUI_KAFKA_EXTRA_CONFIG:-}" ]]; then
    printf '\n# OFFSETTUI_KAFKA_EXTRA_CONFIG\n%s\n' "$OFFSETTUI_KAFKA_EXTRA_CONFIG"
  fi
}
