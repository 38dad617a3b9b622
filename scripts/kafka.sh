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
# A three-node cluster (three combined broker+controller nodes, PLAINTEXT only, replication
# factor 3, min.insync.replicas=2, __consumer_offsets with RF 3; short failure-detection settings
# so elections and coordinator moves take seconds), beside or instead of the single node:
#
#   scripts/kafka.sh cluster start              format three fresh nodes, start them, wait
#   scripts/kafka.sh cluster stop               stop every node and remove the state dir
#   scripts/kafka.sh cluster env                print the exports the cluster tests read
#   scripts/kafka.sh cluster status             say which nodes run (exit 1 when one does not)
#   scripts/kafka.sh cluster stop-node N        controlled shutdown of node N (SIGTERM), wait
#   scripts/kafka.sh cluster kill-node N        kill -9 node N, wait
#   scripts/kafka.sh cluster start-node N [--no-wait]
#                                               start node N on its data; wait until it answers
#                                               (--no-wait: until its listener accepts)
#   scripts/kafka.sh cluster restart-node N [--kill]
#                                               stop (or kill -9) N, start it, wait-sync
#   scripts/kafka.sh cluster wait-sync [--preferred]
#                                               wait until all brokers are up and every
#                                               partition's ISR is complete (--preferred: after a
#                                               preferred election, every leader preferred)
#
# Environment (all optional):
#   OFFSETTUI_KAFKA_ROLE           which of CI's brokers this is (default main); it picks the default
#                                  version and port and the names 'env' exports:
#                                    main    Kafka 4.4.0 on 19092; OFFSETTUI_IT_BOOTSTRAP, OFFSETTUI_KAFKA_LIB, ...
#                                    oldest  the oldest 4.x the project supports, 4.0.0, on 19112;
#                                            OFFSETTUI_IT_OLDEST_BOOTSTRAP, OFFSETTUI_IT_OLDEST_KAFKA_LIB, ...
#                                    timers  Kafka 4.4.0 on 19132 with short timers for the shapes that need
#                                            time to pass: offsets.retention.minutes=1 (sweep every 2 s), a log
#                                            cleaner that wakes every 500 ms, tiered storage (KIP-405) on
#                                            Kafka's LocalTieredStorage with 1 s remote-log-manager tasks, and
#                                            streams task offsets reported every second while a task restores
#                                            (see timers_config); OFFSETTUI_IT_TIMERS_BOOTSTRAP, ...
#                                  The version matrix (scripts/lib/kafka-matrix.sh): one PLAINTEXT listener each,
#                                  no SASL, TLS or ACLs, small heaps; env exports BOOTSTRAP, KAFKA_VERSION,
#                                  KAFKA_LIB and SHAPES under its prefix:
#                                    v28     Kafka 2.8.2 on 19152 with a real ZooKeeper 3.5.9 (Kafka's own
#                                            dependency, from the same jars) on 19150; OFFSETTUI_IT_V28_BOOTSTRAP, ...
#                                    v37     Kafka 3.7.2 (KRaft) on 19172, controller on 19173; OFFSETTUI_IT_V37_...
#                                    v39     Kafka 3.9.1 (KRaft) on 19192, controller on 19193; OFFSETTUI_IT_V39_...
#                                    commitlog  Kafka 4.4.0 on 19232, the default settings: its __consumer_offsets
#                                            gets tens of MB of one group's commits for the commit log's figures
#                                            (docs/testing.md), which no other test should read;
#                                            OFFSETTUI_IT_COMMITLOG_BOOTSTRAP, ...
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
#   OFFSETTUI_KAFKA_START_TIMEOUT  seconds to wait for the broker to answer (default 60; a cluster node 180)
#   OFFSETTUI_KAFKA_EXTRA_CONFIG   extra server.properties lines, appended last (newline separated)
#   JAVA_HOME                      java to use (default: java on PATH)
#   OFFSETTUI_KAFKA_CLUSTER_PORT   the cluster's base port (default 19100): node N listens on
#                                  port+2(N-1) (PLAINTEXT) and the next port (CONTROLLER)
#   OFFSETTUI_KAFKA_CLUSTER_STATE  its state dir (default ${TMPDIR:-/tmp}/offsettui-kafka-cluster-<port>)
#   OFFSETTUI_KAFKA_SYNC_TIMEOUT   seconds wait-sync waits (default 120)
#   OFFSETTUI_KAFKA_CLUSTER_HEAP   each node's heap (default 384m; the 10,000-group fleet wants 1g)
#
# Typical use:
#   scripts/kafka.sh start && eval "$(scripts/kafka.sh env)" && go test ./... ; scripts/kafka.sh stop
#   scripts/kafka.sh tool org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
#       --bootstrap-server 127.0.0.1:19092 --list
set -euo pipefail

# shellcheck source=lib/kafka-common.sh
source "$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)/lib/kafka-common.sh"
# shellcheck source=lib/kafka-tls.sh
source "$SCRIPT_DIR/lib/kafka-tls.sh"
# shellcheck source=lib/kafka-timers.sh
source "$SCRIPT_DIR/lib/kafka-timers.sh"

PORT="${OFFSETTUI_KAFKA_PORT:-$DEFAULT_PORT}"
check_port OFFSETTUI_KAFKA_PORT "$PORT"
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
STATE="${OFFSETTUI_KAFKA_STATE:-${TMPDIR:-/tmp}/offsettui-kafka-$PORT}"
PIDFILE="$STATE/broker.pid"
PKI="$STATE/pki"
if matrix_role; then
  # shellcheck source=lib/kafka-matrix.sh
  source "$SCRIPT_DIR/lib/kafka-matrix.sh"
fi

# The pid of our broker, if it is running.
broker_pid() { live_pid "$PIDFILE" "$STATE/server.properties"; }

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

$(group_settings)
EOF
  if [[ "$ROLE" == timers ]]; then
    timers_config >>"$STATE/server.properties"
  fi
  extra_config >>"$STATE/server.properties"
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
  if matrix_role; then
    matrix_start
    return
  fi
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

  new_state "$STATE"
  mkdir -p "$STATE/data"
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

  # Kafka 4.x reads OAuth JWKS URLs and files only when the JVM allows them.
  launch_broker "$STATE" "$classpath" -Xms256m -Xmx512m \
    -Dorg.apache.kafka.sasl.oauthbearer.allowed.urls="file://$PKI/jwks.json" \
    -Dorg.apache.kafka.sasl.oauthbearer.allowed.files="$PKI/jwks.json"
  pid="$(cat "$PIDFILE")"

  local deadline=$((SECONDS + START_TIMEOUT))
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      show_logs "$STATE"
      rm -f "$PIDFILE"
      die "the broker exited during startup (state dir $STATE)"
    fi
    if port_in_use "$PORT" && probe; then
      wait_pki
      break
    fi
    if ((SECONDS >= deadline)); then
      show_logs "$STATE"
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
  if matrix_role; then
    matrix_stop
    return
  fi
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
  remove_state "$STATE"
}

cmd_env() {
  # The shapes' classes are named by the source's digest: compile them if Shapes.java changed
  # since start (seconds; nothing when they are there).
  if [[ -f "$LIB/.complete" ]]; then
    with_lock "$(dirname "$LIB")" compile_shapes
  fi
  if [[ "$ROLE" != main ]]; then
    # CI's other brokers: their own names, so one shell holds them all. The matrix's brokers
    # have no SASL listener.
    echo "export ${ENV_PREFIX}BOOTSTRAP=$BOOTSTRAP"
    matrix_role || echo "export ${ENV_PREFIX}SASL_BOOTSTRAP=$SASL_BOOTSTRAP"
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
    cluster)
      # shellcheck source=lib/kafka-cluster.sh
      source "$SCRIPT_DIR/lib/kafka-cluster.sh"
      cluster_main "$@"
      ;;
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
