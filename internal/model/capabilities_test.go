package model

import (
	"fmt"
	"testing"
)

// The versions each line's brokers advertised in ApiVersions, measured on the brokers of
// scripts/kafka.sh (2.8.2 with ZooKeeper, 3.7.2, 3.9.1, 4.0.0, 4.4.0 in KRaft mode), for the
// keys the rules read.
var measuredVersions = map[string]APIVersions{
	"2.8.2": {APIProduce: 9, APIListOffsets: 6, APIOffsetFetch: 7, APIDescribeGroups: 5, APIListGroups: 4, APIApiVersions: 3, APIOffsetDelete: 0, APIDescribeCluster: 0},
	"3.7.2": {APIProduce: 10, APIListOffsets: 8, APIOffsetFetch: 9, APIDescribeGroups: 5, APIListGroups: 4, APIApiVersions: 3, APIOffsetDelete: 0, APIDescribeCluster: 1, APIConsumerGroupBeat: 0},
	"3.9.1": {APIProduce: 11, APIListOffsets: 9, APIOffsetFetch: 9, APIDescribeGroups: 5, APIListGroups: 5, APIApiVersions: 4, APIOffsetDelete: 0, APIDescribeCluster: 1, APIConsumerGroupBeat: 0, APIConsumerGroupDescribe: 0},
	"4.0.0": {APIProduce: 12, APIListOffsets: 10, APIOffsetFetch: 9, APIDescribeGroups: 6, APIListGroups: 5, APIApiVersions: 4, APIOffsetDelete: 0, APIDescribeCluster: 2, APIConsumerGroupBeat: 1, APIConsumerGroupDescribe: 1},
	"4.4.0": {APIProduce: 13, APIListOffsets: 11, APIOffsetFetch: 10, APIDescribeGroups: 6, APIListGroups: 5, APIApiVersions: 5, APIOffsetDelete: 0, APIDescribeCluster: 2, APIConsumerGroupBeat: 1, APIConsumerGroupDescribe: 1, APIShareGroupDescribe: 1, APIStreamsGroupDescribe: 1},
}

func TestClusterCapabilitiesPerLine(t *testing.T) {
	for _, c := range []struct {
		version, line string
		missing       []string
	}{
		{"2.8.2", KafkaLine28, []string{CapabilityConsumerGroups, CapabilityShareGroups, CapabilityStreamsGroups, CapabilityBatchedFetch, CapabilityListTypeFilter}},
		{"3.7.2", KafkaLine30, []string{CapabilityConsumerGroups, CapabilityShareGroups, CapabilityStreamsGroups, CapabilityListTypeFilter}},
		{"3.9.1", KafkaLine38, []string{CapabilityShareGroups, CapabilityStreamsGroups}},
		{"4.0.0", KafkaLine40, []string{CapabilityShareGroups, CapabilityStreamsGroups}},
		{"4.4.0", KafkaLine44, []string{}},
	} {
		v := measuredVersions[c.version]
		caps := ClusterCapabilities(v)
		got := []string{}
		for _, cp := range caps {
			got = append(got, cp.Missing)
			if cp.API == "" || cp.Consequence == "" {
				t.Errorf("%s: %+v has no api or consequence", c.version, cp)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.missing) {
			t.Errorf("%s: missing %v, want %v", c.version, got, c.missing)
		}
		if l := KafkaLine(v); l == nil || *l != c.line {
			t.Errorf("%s: line %v, want %s", c.version, l, c.line)
		}
	}
	// 3.7 runs consumer-protocol groups it cannot describe; 2.8 none.
	if cs := ClusterCapabilities(measuredVersions["3.7.2"]); cs[0].Consequence != consumerGroupsRunUndescribed {
		t.Errorf("3.7.2: %q", cs[0].Consequence)
	}
	if cs := ClusterCapabilities(measuredVersions["2.8.2"]); cs[0].Consequence == consumerGroupsRunUndescribed {
		t.Errorf("2.8.2: %q", cs[0].Consequence)
	}
}

func TestCapabilitiesUnknownOrOld(t *testing.T) {
	if ClusterCapabilities(nil) != nil || KafkaLine(nil) != nil {
		t.Error("versions not known: capabilities and line must be null")
	}
	// Kafka 2.3: no DescribeCluster, OffsetFetch v6, ListGroups v3, no OffsetDelete.
	old := APIVersions{APIProduce: 7, APIOffsetFetch: 6, APIDescribeGroups: 3, APIListGroups: 3, APIApiVersions: 2}
	if l := KafkaLine(old); l != nil {
		t.Errorf("2.3: line %s, want null", *l)
	}
	caps := ClusterCapabilities(old)
	for _, id := range []string{CapabilityListStateFilter, CapabilityOffsetDelete} {
		if !MissingCapability(caps, id) {
			t.Errorf("2.3: %s not listed in %+v", id, caps)
		}
	}
}

// TestOneBrokerBehindMakesTheLine: a cluster is as capable as its least capable broker; the
// kafka package lowers the brokers' versions before these rules see them, a request one
// broker lacks being absent.
func TestOneBrokerBehindMakesTheLine(t *testing.T) {
	v := APIVersions{}
	for k, x := range measuredVersions["4.4.0"] {
		if k != APIShareGroupDescribe && k != APIStreamsGroupDescribe && k != APIApiVersions && k != APIProduce {
			v[k] = x
		}
	}
	v[APIApiVersions], v[APIProduce] = 4, 12 // a 4.0 broker beside 4.4 ones
	if l := KafkaLine(v); l == nil || *l != KafkaLine40 {
		t.Errorf("line %v, want 4.0", l)
	}
	if !MissingCapability(ClusterCapabilities(v), CapabilityShareGroups) {
		t.Error("share groups not missing")
	}
}
