package model

// What a cluster's brokers cannot be asked, from their ApiVersions, and the Kafka version line
// those answers place them on (docs/kafka.md "Kafka versions"; docs/json.md
// `cluster.capabilities`). The versions are the cluster's: the lowest of its brokers' maxima
// per request, a request one broker lacks counted as lacking (a rolling upgrade is as capable
// as its oldest broker).

// APIVersions maps a request's API key to the highest version every broker of the cluster
// supports; a request some broker does not support is absent.
type APIVersions map[int16]int16

// Has reports whether every broker supports request key at version v or later.
func (v APIVersions) Has(key, version int16) bool {
	m, ok := v[key]
	return ok && m >= version
}

// The API keys offsettui reads capabilities from (Kafka's ApiKeys).
const (
	APIProduce               int16 = 0
	APIListOffsets           int16 = 2
	APIOffsetFetch           int16 = 9
	APIDescribeGroups        int16 = 15
	APIListGroups            int16 = 16
	APIApiVersions           int16 = 18
	APIOffsetDelete          int16 = 47
	APIDescribeCluster       int16 = 60
	APIConsumerGroupBeat     int16 = 68
	APIConsumerGroupDescribe int16 = 69
	APIShareGroupDescribe    int16 = 77
	APIStreamsGroupDescribe  int16 = 89
)

// apiNames are the ApiVersions key names a Capability's API field carries.
var apiNames = map[int16]string{
	APIOffsetFetch: "OffsetFetch", APIListGroups: "ListGroups", APIOffsetDelete: "OffsetDelete",
	APIConsumerGroupDescribe: "ConsumerGroupDescribe", APIShareGroupDescribe: "ShareGroupDescribe",
	APIStreamsGroupDescribe: "StreamsGroupDescribe",
}

// Capability is one question the cluster's brokers cannot be asked (docs/json.md).
type Capability struct {
	// Missing names it: one of the Capability* ids.
	Missing string `json:"missing"`
	// API is the request (its ApiVersions key name) whose absence, or whose version, says so.
	API string `json:"api"`
	// Consequence is what follows for what offsettui shows.
	Consequence string `json:"consequence"`
}

// The capability ids, in the order a cluster lists them.
const (
	CapabilityConsumerGroups     = "consumer-protocol-groups"
	CapabilityShareGroups        = "share-groups"
	CapabilityStreamsGroups      = "streams-groups"
	CapabilityBatchedFetch       = "batched-offset-fetch"
	CapabilityListTypeFilter     = "list-groups-type-filter"
	CapabilityListStateFilter    = "list-groups-state-filter"
	CapabilityOffsetDelete       = "offset-delete"
	consumerGroupsRunUndescribed = "the brokers run consumer-protocol (KIP-848) groups (ConsumerGroupHeartbeat) but cannot describe them: such a group is listed without its type and described with DescribeGroups as a classic group, so its members, assignments and subscriptions are not known"
)

// capabilityRules: each capability, the request that carries it and the version it needs.
var capabilityRules = []struct {
	id          string
	api         int16
	version     int16
	consequence func(APIVersions) string
}{
	{CapabilityConsumerGroups, APIConsumerGroupDescribe, 0, func(v APIVersions) string {
		if v.Has(APIConsumerGroupBeat, 0) {
			return consumerGroupsRunUndescribed
		}
		return "consumer-protocol (KIP-848) groups need Kafka 3.8 or newer (4.0 for general use): none run here, and consumers use classic groups, shown as such"
	}},
	{CapabilityShareGroups, APIShareGroupDescribe, 0, func(APIVersions) string {
		return "share groups (KIP-932) need Kafka 4.1 or newer: none run here, and none are shown"
	}},
	{CapabilityStreamsGroups, APIStreamsGroupDescribe, 0, func(APIVersions) string {
		return "streams groups (KIP-1071) need Kafka 4.2 or newer: Kafka Streams applications join ordinary consumer groups here, shown without their topology or tasks"
	}},
	{CapabilityBatchedFetch, APIOffsetFetch, 8, func(APIVersions) string {
		return "OffsetFetch below v8 takes one group per request: committed offsets are read with one request per group, pipelined per coordinator, not 500 groups per request; nothing is unknown for it, it takes longer at thousands of groups"
	}},
	{CapabilityListTypeFilter, APIListGroups, 5, func(APIVersions) string {
		return "ListGroups below v5 gives no group type: every group is listed as classic and described with DescribeGroups"
	}},
	{CapabilityListStateFilter, APIListGroups, 4, func(APIVersions) string {
		return "ListGroups below v4 gives no group state: each group's state is its describe's"
	}},
	{CapabilityOffsetDelete, APIOffsetDelete, 0, func(APIVersions) string {
		return "OffsetDelete needs Kafka 2.4 or newer: delete-offsets cannot remove a partition's commit"
	}},
}

// ClusterCapabilities lists what a cluster of these versions cannot be asked, in the order of
// the ids above: [] when nothing is missing, nil when the versions are not known (no broker
// answered ApiVersions).
func ClusterCapabilities(v APIVersions) []Capability {
	if v == nil {
		return nil
	}
	out := []Capability{}
	for _, r := range capabilityRules {
		if !v.Has(r.api, r.version) {
			out = append(out, Capability{Missing: r.id, API: apiNames[r.api], Consequence: r.consequence(v)})
		}
	}
	return out
}

// MissingCapability reports whether caps lists id.
func MissingCapability(caps []Capability, id string) bool {
	for _, c := range caps {
		if c.Missing == id {
			return true
		}
	}
	return false
}

// The Kafka version lines of docs/kafka.md's table, as cluster.kafkaVersion names them.
const (
	KafkaLine28 = "2.8"
	KafkaLine30 = "3.0-3.7"
	KafkaLine38 = "3.8-3.9"
	KafkaLine40 = "4.0"
	KafkaLine41 = "4.1-4.3"
	KafkaLine44 = "4.4"
)

// KafkaLine is the version line of docs/kafka.md whose requests these versions answer: the
// newest line whose first release's ApiVersions they reach (Kafka's ApiKeys of each release);
// nil for versions older than 2.8, or not known. A later release answers as the newest line
// it reaches.
func KafkaLine(v APIVersions) *string {
	if v == nil {
		return nil
	}
	for _, l := range []struct {
		line         string
		key, version int16
	}{
		{KafkaLine44, APIApiVersions, 5},     // KIP-1242
		{KafkaLine41, APIProduce, 13},        // KIP-516 (topic ids in Produce)
		{KafkaLine40, APIDescribeGroups, 6},  // KIP-1043
		{KafkaLine38, APIListGroups, 5},      // KIP-848 (group types)
		{KafkaLine30, APIOffsetFetch, 8},     // KIP-709 (batched OffsetFetch)
		{KafkaLine28, APIDescribeCluster, 0}, // KIP-700
	} {
		if v.Has(l.key, l.version) {
			line := l.line
			return &line
		}
	}
	return nil
}
