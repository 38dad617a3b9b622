package serve

import dto "github.com/prometheus/client_model/go"

// The metrics offsettui serve exports (docs/metrics.md is their contract).
// Every one carries the cluster label; a group's carry group and type, a
// partition's topic and partition too. A value that is unknown is absent,
// never 0.

// metric is one metric's name, help and type.
type metric struct {
	name, help string
	counter    bool
}

func gauge(name, help string) *metric   { return &metric{name: name, help: help} }
func counter(name, help string) *metric { return &metric{name: name, help: help, counter: true} }

// The exporter's own health, per cluster.
var (
	mUp = gauge("offsettui_up",
		"1 when the last snapshot of the cluster was read, 0 when it failed; with 0, every group and partition series of the cluster is absent.")
	mSnapshotDuration = gauge("offsettui_snapshot_duration_seconds",
		"How long the last snapshot took, read or failed.")
	mLastSuccess = gauge("offsettui_last_success_timestamp_seconds",
		"When the last snapshot that was read was taken (Unix time); absent before the first.")
	mSnapshots = counter("offsettui_snapshots_total",
		"Snapshots attempted since the exporter started.")
	mFailures = counter("offsettui_snapshot_failures_total",
		"Snapshots that failed whole, by reason: connect (no connection could be made), timeout (the snapshot's deadline ran out), read (connected, but nothing could be read).")
	mItemErrors = gauge("offsettui_snapshot_errors",
		"Items (brokers, groups, topics, partitions) the last snapshot could not read, by kind (docs/json.md); absent when it failed whole.")
	mGroups = gauge("offsettui_groups",
		"Groups in the last snapshot.")
	mLeftOut = gauge("offsettui_partition_series_left_out",
		"Partitions that are not ok but got no offsettui_partition_* series because of --max-partition-series (the least severe are left out).")
	mKafkaVersion = gauge("offsettui_kafka_version_info",
		"1, with the Kafka version line of docs/kafka.md the brokers' ApiVersions place them on (kafka_version, e.g. 3.8-3.9; before-2.8); absent when no broker answered ApiVersions.")
	mCapabilityMissing = gauge("offsettui_capability_missing_info",
		"1 for each question the brokers cannot be asked (missing: the capability's id of docs/json.md; api: the request), by their ApiVersions; none when nothing is missing.")
)

// Per group.
var (
	mGroupLag = gauge("offsettui_group_lag",
		"The group's total lag in records (partitions with a commit); absent when a part of it could not be read.")
	mGroupLagKnown = gauge("offsettui_group_lag_known",
		"1 when offsettui_group_lag is present, 0 when the lag could not be read whole.")
	mGroupLagSeconds = gauge("offsettui_group_lag_seconds",
		"The age of the oldest record the group has not read (the largest time lag of its partitions); absent when one is unknown.")
	mGroupConsumeRate = gauge("offsettui_group_consume_rate",
		"How fast the group's committed offsets move, offsets per second over the samples kept; absent with one sample or a position unknown.")
	mGroupProduceRate = gauge("offsettui_group_produce_rate",
		"How fast the high watermarks of the group's partitions move, offsets per second.")
	mGroupLagRate = gauge("offsettui_group_lag_rate",
		"How fast the group's lag changes, records per second (positive: growing).")
	mGroupETA = gauge("offsettui_group_eta_seconds",
		"Time until the group is caught up at these rates: 0 caught up, +Inf never at this rate (also stalled, stopped); absent when unknown.")
	mGroupLoss = gauge("offsettui_group_loss_seconds",
		"Time until retention deletes a record the group has not read, at these rates (its soonest partition); absent when no loss is predicted.")
	mGroupLossNeeded = gauge("offsettui_group_loss_needed_rate",
		"The consume rate, offsets per second, at and above which that partition loses nothing; present with offsettui_group_loss_seconds.")
	mGroupCommitsExpire = gauge("offsettui_group_commits_expire_seconds",
		"Time until the broker may delete the group's first commit (offsets.retention.minutes; 0: due at its next sweep); basis known when the time it counts from was read in __consumer_offsets, latest when not (the latest it can come); absent when no commit expires in the group's state.")
	mGroupLosingNow = gauge("offsettui_group_losing_now",
		"1 while the group is losing records now (a live consumer behind the log start, or a lost count of it grew within the last 5 minutes), else 0 (docs/statuses.md).")
	mGroupLost = gauge("offsettui_group_lost_records",
		"Records retention already deleted before the group read them (its expired partitions); absent when a part of the group could not be read.")
	mGroupPartitions = gauge("offsettui_group_partitions",
		"The group's partitions with each status (docs/statuses.md); a status no partition has is absent.")
	mGroupEvaluation = gauge("offsettui_group_evaluation",
		"1 for the group's evaluation on the time axis (docs/timeaxis.md: ok, warn, stopped, stalled, rewound, unknown); absent before the second snapshot.")
	mGroupState = gauge("offsettui_group_state",
		"1 for the group's state as the broker reports it (Stable, Empty, ...); absent when unknown.")
	mGroupMembers = gauge("offsettui_group_members",
		"The group's members; absent when the group could not be described.")
	mStreamsRestoreLag = gauge("offsettui_streams_restore_lag_records",
		"Records a streams task still restores from its changelogs (the changelog end offsets minus the offsets its member last reported), by member, subtopology, partition and role; absent when the broker sends none for the task (it runs, or the broker does not send them).")
)

// Per group and topic (--granularity topic).
var (
	mTopicLag = gauge("offsettui_group_topic_lag",
		"The group's lag in records on one topic (partitions with a commit), as its total counts it; absent when a part of it could not be read. Only with --granularity topic.")
	mTopicLagSeconds = gauge("offsettui_group_topic_lag_seconds",
		"The age of the oldest record of the topic the group has not read; absent when one is unknown. Only with --granularity topic.")
)

// Per partition that is not ok (docs/metrics.md says which).
var (
	mPartLag = gauge("offsettui_partition_lag",
		"The partition's lag in records; absent when unknown.")
	mPartLagSeconds = gauge("offsettui_partition_lag_seconds",
		"The age of the record at the committed offset; absent when unknown.")
	mPartStatus = gauge("offsettui_partition_status",
		"1 for the partition's status (docs/statuses.md).")
	mPartLost = gauge("offsettui_partition_lost_records",
		"Records deleted before the group read them (expired partitions only).")
	mPartExpiresIn = gauge("offsettui_partition_expires_in_seconds",
		"Time until the next record the group needs may be deleted by retention (negative: it may be already); absent when unknown.")
	mPartLoss = gauge("offsettui_partition_loss_seconds",
		"Time until retention deletes a record the group has not read, at these rates; absent when no loss is predicted.")
	mPartDeadline = gauge("offsettui_partition_deadline_seconds",
		"The partition's deadline: the time to loss at the measured rates (basis rates), else the time until its next record may be deleted, the consumer assumed stopped (basis stopped-consumer); absent when it has none.")
	mPartEvaluation = gauge("offsettui_partition_evaluation",
		"1 for the partition's evaluation on the time axis; absent before the second snapshot.")
)

// allMetrics lists every metric, in the order /metrics writes them.
var allMetrics = []*metric{
	mUp, mSnapshotDuration, mLastSuccess, mSnapshots, mFailures, mItemErrors, mGroups, mLeftOut, mKafkaVersion, mCapabilityMissing,
	mGroupLag, mGroupLagKnown, mGroupLagSeconds, mGroupConsumeRate, mGroupProduceRate, mGroupLagRate,
	mGroupETA, mGroupLoss, mGroupLossNeeded, mGroupCommitsExpire, mGroupLosingNow, mGroupLost, mGroupPartitions, mGroupEvaluation, mGroupState, mGroupMembers,
	mStreamsRestoreLag,
	mTopicLag, mTopicLagSeconds,
	mPartLag, mPartLagSeconds, mPartStatus, mPartLost, mPartExpiresIn, mPartLoss, mPartDeadline, mPartEvaluation,
}

// Label names, each kept once so that every label pair can point at it.
var (
	lAPI          = "api"
	lBasis        = "basis"
	lCluster      = "cluster"
	lEvaluation   = "evaluation"
	lGroup        = "group"
	lKafkaVersion = "kafka_version"
	lKind         = "kind"
	lMember       = "member"
	lMissing      = "missing"
	lPartition    = "partition"
	lReason       = "reason"
	lRole         = "role"
	lState        = "state"
	lSubtopology  = "subtopology"
	lStatus       = "status"
	lTopic        = "topic"
	lType         = "type"
)

// family is one metric's series of one cluster, in the form /metrics writes.
func (m *metric) family(series []*dto.Metric) *dto.MetricFamily {
	t := dto.MetricType_GAUGE
	if m.counter {
		t = dto.MetricType_COUNTER
	}
	return &dto.MetricFamily{Name: &m.name, Help: &m.help, Type: t.Enum(), Metric: series}
}
