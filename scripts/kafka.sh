#!/usr/bin/env bash
# A real single-node Apache Kafka broker (KRaft, combined broker+controller) for offsettui's
# integration tests, run from Maven Central jars: no Docker, only java 17 and mvn.
#
#   scripts/kafka.sh start               fetch jars (once), format a fresh log dir, start, wait
#   scripts/kafka.sh stop                stop the broker and remove its state dir (idempotent)
#   scripts/kafka.sh env                 print the exports the Go tests read
#   scripts/kafka.sh tool MAIN args...   run a Kafka CLI main class (stdout clean, logs on stderr)
#   scripts/kafka.sh status              say whether the broker is running
#   scripts/kafka.sh fetch               only fetch the jars (and compile test/kafka/Shapes.java)
#
# Environment (all optional):
#   OFFSETTUI_KAFKA_ROLE           which of CI's brokers this is (default main); it picks the default
#                                  version and port and the names 'env' exports:
#                                    main    Kafka 4.4.0 on 19092; OFFSETTUI_IT_BOOTSTRAP, OFFSETTUI_KAFKA_LIB, ...
#                                    oldest  the oldest 4.x the project supports, 4.0.0, on 19112;
#                                            OFFSETTUI_IT_OLDEST_BOOTSTRAP, OFFSETTUI_IT_OLDEST_KAFKA_LIB, ...
#                                    timers  Kafka 4.4.0 on 19132 with short timers for the shapes that need
#                                            time to pass: offsets.retention.minutes=1 (sweep every 2 s), a log
#                                            cleaner that wakes every 500 ms, and tiered storage (KIP-405) on
#                                            Kafka's LocalTieredStorage with 1 s remote-log-manager tasks (see
#                                            timers_config); OFFSETTUI_IT_TIMERS_BOOTSTRAP, ...
#   OFFSETTUI_KAFKA_VERSION        Kafka version (default by role: 4.4.0, the newest on Maven Central,
#                                  for main and timers; 4.0.0 for oldest; 4.1.1 is also run on by
#                                  hand, see docs/testing.md). The timers role needs 4.4.0 (its tiered
#                                  storage shim is made for it). Share and streams groups are
#                                  enabled wherever the version has them (share.version is raised
#                                  to 1 at format time where it defaults to 0).
#   OFFSETTUI_KAFKA_PORT           base port on 127.0.0.1 (default by role, 19092 for main, below the ephemeral port range so no client socket can hold it):
#                                    port    PLAINTEXT, principal ANONYMOUS (a super user: no ACL applies)
#                                    port+1  CONTROLLER
#                                    port+2  SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), ACLs enforced
#                                    port+3  SASL_SSL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), ACLs enforced
#                                    port+4  SSL with client certificates required (mTLS); the test client's
#                                            principal User:CN=offsettui-client is a super user
#                                    port+5  SASL_PLAINTEXT with OAUTHBEARER, tokens checked by Kafka's own
#                                            OAuthBearerValidatorCallbackHandler against a JWKS file made here;
#                                            the subject offsettui-oauth is a super user
#                                    port+6  SASL_PLAINTEXT with SCRAM-SHA-512 and OAUTHBEARER (as on port+5) whose
#                                            sessions last REAUTH_MS (connections.max.reauth.ms, KIP-368):
#                                            a client must re-authenticate every few seconds
#                                  Users (PLAIN and SCRAM): admin/admin-secret (super user), alice/alice-secret
#                                  and bob/bob-secret (only what ACLs grant them).
#                                  Test certificates, stores and the OAuth signing key are made at start
#                                  (openssl, keytool) under <state>/pki; 'env' prints their paths.
#   OFFSETTUI_KAFKA_HOME           jar cache (default ~/.cache/offsettui-kafka); jars in
#                                  <home>/<version>/<pom digest>/lib, so checkouts with different
#                                  poms never replace each other's jars
#   OFFSETTUI_KAFKA_STATE          state dir: config, data, logs, pid (default ${TMPDIR:-/tmp}/offsettui-kafka-<port>)
#   OFFSETTUI_KAFKA_START_TIMEOUT  seconds to wait for the broker to answer (default 60)
#   OFFSETTUI_KAFKA_EXTRA_CONFIG   extra server.properties lines, appended last (newline separated)
#   JAVA_HOME                      java to use (default: java on PATH)
#
# Typical use:
#   scripts/kafka.sh start && eval "$(scripts/kafka.sh env)" && go test ./... ; scripts/kafka.sh stop
#   scripts/kafka.sh tool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
#       --bootstrap-server 127.0.0.1:19092 --list
set -euo pipefail

SCRIPT_DIR="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)"
REPO_DIR="$(cd -- "$SCRIPT_DIR/.." && pwd -P)"
KAFKA_CONF_DIR="$REPO_DIR/test/kafka"
POM="$KAFKA_CONF_DIR/pom.xml"
TIERED_POM="$KAFKA_CONF_DIR/tiered-pom.xml"
SHIM_SRC="$KAFKA_CONF_DIR/shim/org/apache/kafka/common/utils/LogContext.java"
SHAPES_SRC="$KAFKA_CONF_DIR/Shapes.java"
BROKER_LOG4J="$KAFKA_CONF_DIR/log4j2-broker.properties"
TOOLS_LOG4J="$KAFKA_CONF_DIR/log4j2-tools.properties"

ROLE="${OFFSETTUI_KAFKA_ROLE:-main}"
case "$ROLE" in
  main) DEFAULT_VERSION=4.4.0 DEFAULT_PORT=19092 ENV_PREFIX=OFFSETTUI_IT_ ;;
  oldest) DEFAULT_VERSION=4.0.0 DEFAULT_PORT=19112 ENV_PREFIX=OFFSETTUI_IT_OLDEST_ ;;
  timers) DEFAULT_VERSION=4.4.0 DEFAULT_PORT=19132 ENV_PREFIX=OFFSETTUI_IT_TIMERS_ ;;
  *) echo "kafka.sh: OFFSETTUI_KAFKA_ROLE must be main, oldest or timers, got '$ROLE'" >&2; exit 2 ;;
esac
VERSION="${OFFSETTUI_KAFKA_VERSION:-$DEFAULT_VERSION}"
HOST=127.0.0.1
PORT="${OFFSETTUI_KAFKA_PORT:-$DEFAULT_PORT}"
if ! [[ "$PORT" =~ ^[0-9]+$ ]] || ((PORT < 1 || PORT > 65534)); then
  echo "kafka.sh: OFFSETTUI_KAFKA_PORT must be a port number below 65535, got '$PORT'" >&2
  exit 2
fi
CONTROLLER_PORT=$((PORT + 1))
SASL_PORT=$((PORT + 2))
SASL_SSL_PORT=$((PORT + 3))
SSL_PORT=$((PORT + 4))
OAUTH_PORT=$((PORT + 5))
REAUTH_PORT=$((PORT + 6))
# The session lifetime of the REAUTH listener: short, so tests see several re-authentications.
REAUTH_MS=5000
BOOTSTRAP="$HOST:$PORT"
SASL_BOOTSTRAP="$HOST:$SASL_PORT"
# SASL users: name:password. admin is a super user; the others get only what a test grants.
SASL_USERS=(admin:admin-secret alice:alice-secret bob:bob-secret)
CACHE_HOME="${OFFSETTUI_KAFKA_HOME:-${HOME:-/tmp}/.cache/offsettui-kafka}"
POM_SUM="$(sha256sum "$POM" | cut -c1-12)"
LIB="$CACHE_HOME/$VERSION/$POM_SUM/lib"
# test/kafka/Shapes.java compiled against $LIB, once per source digest.
SHAPES_CLASSES="$CACHE_HOME/$VERSION/$POM_SUM/shapes-$(sha256sum "$SHAPES_SRC" | cut -c1-12)"
TIERED_LIB="$CACHE_HOME/tiered/$(sha256sum "$TIERED_POM" | cut -c1-12)/lib"
STATE="${OFFSETTUI_KAFKA_STATE:-${TMPDIR:-/tmp}/offsettui-kafka-$PORT}"
PIDFILE="$STATE/broker.pid"
PKI="$STATE/pki"
# Test-only secrets of the generated stores (nothing here protects anything real).
STORE_PASSWORD=store-secret
OAUTH_ISSUER=offsettui-test-issuer
OAUTH_AUDIENCE=offsettui-test
OAUTH_KID=offsettui-test-key
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

# The pid from the pid file, if that process is alive and is our broker.
broker_pid() {
  local pid
  [[ -f "$PIDFILE" ]] || return 1
  pid="$(cat "$PIDFILE" 2>/dev/null || true)"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  # Guard against a recycled pid: it must be a kafka.Kafka started with our config.
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "kafka.Kafka $STATE/server.properties" || return 1
  echo "$pid"
}

# The state dir is removed by start and stop: only ever one that this script created (marked).
remove_state() {
  [[ -e "$STATE" ]] || return 0
  [[ -f "$STATE/.offsettui-kafka-state" ]] \
    || die "refusing to remove $STATE: not a state dir made by kafka.sh (no .offsettui-kafka-state)"
  rm -rf "$STATE"
}

port_in_use() {
  (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null
}

plain_users() {
  local u
  for u in "${SASL_USERS[@]}"; do printf 'user_%s="%s" ' "${u%%:*}" "${u#*:}"; done
}

# scram_args: --add-scram for every user and both SCRAM mechanisms (StorageTool format).
scram_args() {
  local u m
  for u in "${SASL_USERS[@]}"; do
    for m in SCRAM-SHA-256 SCRAM-SHA-512; do
      printf '%s\n%s\n' --add-scram "$m=[name=${u%%:*},password=${u#*:}]"
    done
  done
}

write_config() {
  cat >"$STATE/server.properties" <<EOF
# Generated by scripts/kafka.sh for offsettui's integration tests. One combined KRaft node.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@$HOST:$CONTROLLER_PORT
listeners=PLAINTEXT://$HOST:$PORT,CONTROLLER://$HOST:$CONTROLLER_PORT,SASL_PLAINTEXT://$HOST:$SASL_PORT,SASL_SSL://$HOST:$SASL_SSL_PORT,SSL://$HOST:$SSL_PORT,OAUTH://$HOST:$OAUTH_PORT,REAUTH://$HOST:$REAUTH_PORT
advertised.listeners=PLAINTEXT://$HOST:$PORT,SASL_PLAINTEXT://$HOST:$SASL_PORT,SASL_SSL://$HOST:$SASL_SSL_PORT,SSL://$HOST:$SSL_PORT,OAUTH://$HOST:$OAUTH_PORT,REAUTH://$HOST:$REAUTH_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL,OAUTH:SASL_PLAINTEXT,REAUTH:SASL_PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
log.dirs=$STATE/data

# ACLs. The PLAINTEXT and CONTROLLER listeners authenticate as ANONYMOUS, a super user, so
# tests on them see everything; the SASL listener is where ACLs apply.
authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer
super.users=User:ANONYMOUS;User:admin;User:CN=offsettui-client;User:offsettui-oauth
allow.everyone.if.no.acl.found=false

# SASL: PLAIN users in the JAAS line, SCRAM users created at format time (--add-scram).
listener.name.sasl_plaintext.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required $(plain_users);
listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512
listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required $(plain_users);
listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;

# TLS for the SASL_SSL and SSL listeners: PEM files made by make_pki; the SSL listener requires
# a client certificate signed by the test CA.
ssl.keystore.type=PEM
ssl.keystore.location=$PKI/broker-keystore.pem
ssl.truststore.type=PEM
ssl.truststore.location=$PKI/ca.pem
listener.name.ssl.ssl.client.auth=required

# OAUTHBEARER checked by Kafka's own validator against the JWKS file made by make_pki (the JVM
# must allow the file: see the -D options in cmd_start).
listener.name.oauth.sasl.enabled.mechanisms=OAUTHBEARER
listener.name.oauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.oauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
sasl.oauthbearer.jwks.endpoint.url=file://$PKI/jwks.json
sasl.oauthbearer.expected.issuer=$OAUTH_ISSUER
sasl.oauthbearer.expected.audience=$OAUTH_AUDIENCE

# The REAUTH listener: SCRAM-SHA-512 and OAUTHBEARER (as above) with sessions of REAUTH_MS: the
# broker closes a connection that sends anything but a re-authentication once its session has
# expired (KIP-368).
listener.name.reauth.sasl.enabled.mechanisms=SCRAM-SHA-512,OAUTHBEARER
listener.name.reauth.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
listener.name.reauth.oauthbearer.sasl.jaas.config=org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
listener.name.reauth.oauthbearer.sasl.server.callback.handler.class=org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler
listener.name.reauth.scram-sha-512.connections.max.reauth.ms=$REAUTH_MS
listener.name.reauth.oauthbearer.connections.max.reauth.ms=$REAUTH_MS

num.partitions=1
default.replication.factor=1
min.insync.replicas=1
auto.create.topics.enable=false

# Internal topics on a single node.
offsets.topic.replication.factor=1
offsets.topic.num.partitions=3
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=3
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
share.coordinator.state.topic.num.partitions=3

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
EOF
  if [[ "$ROLE" == timers ]]; then
    timers_config >>"$STATE/server.properties"
  fi
  if [[ -n "${OFFSETTUI_KAFKA_EXTRA_CONFIG:-}" ]]; then
    printf '\n# OFFSETTUI_KAFKA_EXTRA_CONFIG\n%s\n' "$OFFSETTUI_KAFKA_EXTRA_CONFIG" >>"$STATE/server.properties"
  fi
}

# timers_config: the broker settings of the timers role, for the shapes that need time to pass
# (commit expiry, compaction, tiered storage). Topic-level settings (delete.retention.ms,
# min.cleanable.dirty.ratio, segment.ms, local.retention.ms, remote.storage.enable) are the
# tests' own; these are the broker-only ones.
timers_config() {
  cat <<EOF

# Timers role: commits expire 1 minute after their base time (the last commit, or the time a
# classic group became Empty), checked every 2 s instead of 7 days / 10 minutes.
offsets.retention.minutes=1
offsets.retention.check.interval.ms=2000
# The log cleaner looks for work every 500 ms (default 15 s).
log.cleaner.backoff.ms=500
# Tiered storage (KIP-405) on Kafka's LocalTieredStorage (kafka-storage's test jar; see
# test/kafka/tiered-pom.xml and the shim in test/kafka/shim): "remote" segments are files under
# the state dir. The remote log manager copies and expires every second; its metadata topic
# has one partition (default 50) so the broker is ready sooner.
remote.log.storage.system.enable=true
remote.log.storage.manager.class.name=org.apache.kafka.server.log.remote.storage.LocalTieredStorage
remote.log.storage.manager.impl.prefix=rsm.config.
rsm.config.dir=$STATE/remote-storage
remote.log.metadata.manager.listener.name=PLAINTEXT
remote.log.metadata.manager.impl.prefix=rlmm.config.
rlmm.config.remote.log.metadata.topic.replication.factor=1
rlmm.config.remote.log.metadata.topic.num.partitions=1
remote.log.manager.task.interval.ms=1000
EOF
}

# compile_shim: the LogContext shim that lets 4.3.1's LocalTieredStorage run on 4.4.0, into
# the state dir (a second or two of javac at start; run in the background, see cmd_start).
compile_shim() {
  mkdir -p "$STATE/shim"
  javac -nowarn -d "$STATE/shim" -cp "$LIB/*" "$SHIM_SRC" >"$STATE/shim.log" 2>&1
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

# b64url: standard input as unpadded base64url.
b64url() { base64 -w0 | tr '+/' '-_' | tr -d '='; }

# make_pki: a test CA, the broker's PEM keystore (127.0.0.1 and localhost), a client
# certificate as a PKCS12 keystore, the CA as JKS and PKCS12 truststores, and an RSA key with
# its JWKS for OAUTHBEARER. The two keytool runs (one JVM each) go in the background: wait_pki
# waits for them.
make_pki() {
  local ossl=(openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:P-256)
  need openssl "the test certificates are made with it"
  need keytool "the JKS and PKCS12 truststores are made with it (it comes with the JDK)"
  mkdir -p "$PKI"
  (
    cd "$PKI"
    "${ossl[@]}" -x509 -days 7 -subj "/CN=offsettui test CA" -keyout ca.key -out ca.pem \
      -addext basicConstraints=critical,CA:true -addext keyUsage=critical,keyCertSign 2>/dev/null
    "${ossl[@]}" -subj "/CN=localhost" -keyout broker.key -out broker.csr 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' >broker.ext
    openssl x509 -req -in broker.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 7 -extfile broker.ext -out broker.pem 2>/dev/null
    cat broker.key broker.pem ca.pem >broker-keystore.pem
    "${ossl[@]}" -subj "/CN=offsettui-client" -keyout client.key -out client.csr 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' >client.ext
    openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 7 -extfile client.ext -out client.pem 2>/dev/null
    openssl pkcs12 -export -inkey client.key -in client.pem -certfile ca.pem -name client \
      -passout "pass:$STORE_PASSWORD" -out client-keystore.p12
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out oauth.key 2>/dev/null
    local n
    # The modulus as unsigned big-endian bytes: openssl prints it in hex; printf turns \xHH into bytes.
    n="$(printf '%b' "$(openssl rsa -in oauth.key -noout -modulus | cut -d= -f2 | sed 's/../\\x&/g')" | b64url)"
    printf '{"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"%s","n":"%s","e":"AQAB"}]}\n' "$OAUTH_KID" "$n" >jwks.json
  ) || die "making the test certificates failed"
  local t
  for t in JKS PKCS12; do
    keytool -importcert -noprompt -alias caroot -file "$PKI/ca.pem" -storetype "$t" -storepass "$STORE_PASSWORD" \
      -keystore "$PKI/truststore.${t,,}" >"$PKI/keytool-$t.log" 2>&1 &
    echo $! >"$PKI/keytool-$t.pid"
  done
}

wait_pki() {
  local t
  for t in JKS PKCS12; do
    wait "$(cat "$PKI/keytool-$t.pid")" || { cat "$PKI/keytool-$t.log" >&2; die "keytool could not write the $t truststore"; }
  done
}

show_logs() {
  local f
  if [[ -s "$STATE/server.log" ]]; then
    # The cause is usually the first ERROR; the tail is mostly shutdown chatter.
    echo "----- first errors in $STATE/server.log -----" >&2
    grep -m 20 -E ' (ERROR|FATAL) ' "$STATE/server.log" >&2 || echo "(none)" >&2
  fi
  for f in "$STATE/server.log" "$STATE/broker.out"; do
    if [[ -s "$f" ]]; then
      echo "----- last 40 lines of $f -----" >&2
      tail -n 40 "$f" >&2
    fi
  done
}

# A real protocol round trip: ApiVersions to the broker listener (BrokerApiVersionsCommand).
# A short admin timeout per attempt; the caller loops.
probe() {
  local out
  out="$(run_tool org.apache.kafka.tools.BrokerApiVersionsCommand \
           --bootstrap-server "$BOOTSTRAP" --command-config "$STATE/probe.properties" 2>/dev/null)" \
    || return 1
  grep -q "^$HOST:$PORT (id: 1 rack: null" <<<"$out"
}

cmd_start() {
  local pid t0 cluster_id i
  need "$JAVA" "Kafka needs a Java 17+ runtime"
  if pid="$(broker_pid)"; then
    die "a broker is already running on $BOOTSTRAP (pid $pid, state $STATE); run '$0 stop' first"
  fi
  port_in_use "$PORT" && die "port $PORT on $HOST is already in use (set OFFSETTUI_KAFKA_PORT)"
  port_in_use "$CONTROLLER_PORT" && die "controller port $CONTROLLER_PORT on $HOST is already in use (set OFFSETTUI_KAFKA_PORT)"
  local p
  for p in "$SASL_PORT" "$SASL_SSL_PORT" "$SSL_PORT" "$OAUTH_PORT" "$REAUTH_PORT"; do
    port_in_use "$p" && die "listener port $p on $HOST is already in use (set OFFSETTUI_KAFKA_PORT)"
  done

  fetch_all

  remove_state
  mkdir -p "$STATE/data"
  touch "$STATE/.offsettui-kafka-state"
  make_pki
  write_config
  printf 'request.timeout.ms=2000\ndefault.api.timeout.ms=3000\nsocket.connection.setup.timeout.ms=1000\nsocket.connection.setup.timeout.max.ms=1000\n' \
    >"$STATE/probe.properties"

  t0="$(now)"
  local classpath="$LIB/*" shim_pid=""
  if [[ "$ROLE" == timers ]]; then
    [[ "$VERSION" == 4.4.* ]] || die "the timers role runs Kafka 4.4.x (its LocalTieredStorage shim is made for it), not $VERSION"
    need javac "the timers broker compiles a shim class for LocalTieredStorage"
    compile_shim &
    shim_pid=$!
    classpath="$LIB/*:$TIERED_LIB/*:$STATE/shim"
  fi
  cluster_id="$(run_tool kafka.tools.StorageTool random-uuid)" || die "StorageTool random-uuid failed"
  local scram=() features=()
  mapfile -t scram < <(scram_args)
  mapfile -t features < <(features_args)
  run_tool kafka.tools.StorageTool format -t "$cluster_id" -c "$STATE/server.properties" "${scram[@]}" "${features[@]}" \
    >"$STATE/format.out" 2>&1 || { cat "$STATE/format.out" >&2; die "StorageTool format failed"; }
  if [[ -n "$shim_pid" ]]; then
    wait "$shim_pid" || { cat "$STATE/shim.log" >&2; die "javac could not compile $SHIM_SRC"; }
  fi

  # setsid: the broker must outlive this script (and the shell that ran it).
  local launcher=()
  command -v setsid >/dev/null 2>&1 && launcher=(setsid)
  # Kafka 4.x reads OAuth JWKS URLs and files only when the JVM allows them.
  "${launcher[@]}" "$JAVA" -Xms256m -Xmx512m -XX:+UseG1GC -Djava.awt.headless=true \
    -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls="file://$PKI/jwks.json" \
    -Dorg.apache.kafka.sasl.oauthbearer.allowed.files="$PKI/jwks.json" \
    -Dlog4j2.configurationFile="$BROKER_LOG4J" -Dkafka.logs.dir="$STATE" \
    -cp "$classpath" kafka.Kafka "$STATE/server.properties" \
    </dev/null >"$STATE/broker.out" 2>&1 &
  pid=$!
  echo "$pid" >"$PIDFILE"

  local deadline=$((SECONDS + START_TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      show_logs
      rm -f "$PIDFILE"
      die "the broker exited during startup (state dir $STATE)"
    fi
    if port_in_use "$PORT" && probe; then
      wait_pki
      break
    fi
    if ((SECONDS >= deadline)); then
      show_logs
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$PIDFILE"
      die "the broker did not answer on $BOOTSTRAP within ${START_TIMEOUT}s (killed it; state dir $STATE)"
    fi
    sleep 0.3
  done
  log "Kafka $VERSION ($ROLE) up on $BOOTSTRAP (pid $pid, cluster $cluster_id) after $(elapsed "$t0")s; state in $STATE"
}

cmd_stop() {
  local pid i
  if pid="$(broker_pid)"; then
    kill -TERM "$pid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "broker (pid $pid) still running after 15s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
    fi
    log "stopped broker (pid $pid)"
  fi
  remove_state
}

cmd_env() {
  # The shapes' classes are named by the source's digest: compile them if Shapes.java changed
  # since start (seconds; nothing when they are there).
  if [[ -f "$LIB/.complete" ]]; then
    with_lock "$(dirname "$LIB")" compile_shapes
  fi
  if [[ "$ROLE" != main ]]; then
    # The second and third brokers of CI: their own names, so one shell holds all three.
    echo "export ${ENV_PREFIX}BOOTSTRAP=$BOOTSTRAP"
    echo "export ${ENV_PREFIX}SASL_BOOTSTRAP=$SASL_BOOTSTRAP"
    echo "export ${ENV_PREFIX}KAFKA_VERSION=$VERSION"
    echo "export ${ENV_PREFIX}KAFKA_LIB=$LIB"
    echo "export ${ENV_PREFIX}SHAPES=$SHAPES_CLASSES"
    echo "export OFFSETTUI_KAFKA_TOOLS_LOG4J=$TOOLS_LOG4J"
    return
  fi
  echo "export OFFSETTUI_IT_BOOTSTRAP=$BOOTSTRAP"
  echo "export OFFSETTUI_IT_SASL_BOOTSTRAP=$SASL_BOOTSTRAP"
  echo "export OFFSETTUI_IT_SASL_SSL_BOOTSTRAP=$HOST:$SASL_SSL_PORT"
  echo "export OFFSETTUI_IT_SSL_BOOTSTRAP=$HOST:$SSL_PORT"
  echo "export OFFSETTUI_IT_OAUTH_BOOTSTRAP=$HOST:$OAUTH_PORT"
  echo "export OFFSETTUI_IT_REAUTH_BOOTSTRAP=$HOST:$REAUTH_PORT"
  echo "export OFFSETTUI_IT_REAUTH_MS=$REAUTH_MS"
  echo "export OFFSETTUI_IT_CA_PEM=$PKI/ca.pem"
  echo "export OFFSETTUI_IT_TRUSTSTORE_JKS=$PKI/truststore.jks"
  echo "export OFFSETTUI_IT_TRUSTSTORE_PKCS12=$PKI/truststore.pkcs12"
  echo "export OFFSETTUI_IT_KEYSTORE_PKCS12=$PKI/client-keystore.p12"
  echo "export OFFSETTUI_IT_STORE_PASSWORD=$STORE_PASSWORD"
  echo "export OFFSETTUI_IT_OAUTH_KEY=$PKI/oauth.key"
  echo "export OFFSETTUI_IT_OAUTH_KID=$OAUTH_KID"
  echo "export OFFSETTUI_IT_OAUTH_ISSUER=$OAUTH_ISSUER"
  echo "export OFFSETTUI_IT_OAUTH_AUDIENCE=$OAUTH_AUDIENCE"
  echo "export OFFSETTUI_KAFKA_LIB=$LIB"
  echo "export OFFSETTUI_IT_KAFKA_VERSION=$VERSION"
  echo "export OFFSETTUI_KAFKA_TOOLS_LOG4J=$TOOLS_LOG4J"
  echo "export OFFSETTUI_KAFKA_STREAMS_APP=$KAFKA_CONF_DIR/StreamsApp.java"
  echo "export OFFSETTUI_IT_SHAPES=$SHAPES_CLASSES"
}

cmd_status() {
  local pid
  if pid="$(broker_pid)"; then
    echo "running: $BOOTSTRAP (pid $pid, state $STATE)"
  else
    echo "not running ($BOOTSTRAP)"
    return 1
  fi
}

usage() {
  sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2
  exit 2
}

main() {
  [[ $# -ge 1 ]] || usage
  local cmd="$1"
  shift
  case "$cmd" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    env) cmd_env ;;
    status) cmd_status ;;
    fetch) fetch_all ;;
    tool)
      [[ $# -ge 1 ]] || die "usage: $0 tool <MainClass> [args...]"
      fetch_jars
      set_tool_cmd "$@"
      # exec: signals (kill PID, Ctrl-C) reach the JVM itself, so e.g. a console consumer
      # closes cleanly and commits, and no orphan JVM is left behind.
      exec "${tool_cmd[@]}"
      ;;
    -h | --help | help) usage ;;
    *) echo "kafka.sh: unknown command '$cmd'" >&2; usage ;;
  esac
}

main "$@"
