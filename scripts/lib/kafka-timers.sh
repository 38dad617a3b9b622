# The timers role of scripts/kafka.sh (OFFSETTUI_KAFKA_ROLE=timers): its broker settings and the
# tiered-storage shim. Sourced by scripts/kafka.sh after kafka-common.sh; never run.

# timers_config: the broker settings of the timers role, for the shapes that need time to pass
# (commit expiry, compaction, tiered storage, a Streams task restoring). Topic-level settings (delete.retention.ms,
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
# Streams members report their tasks' changelog offsets and end offsets (the restore lag in
# StreamsGroupDescribe) every second while a task restores, instead of every 60 s (at least 15 s).
group.streams.task.offset.interval.ms=1000
group.streams.min.task.offset.interval.ms=1000
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
