package main

import (
	"reflect"
	"testing"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/mcpserver"
	"github.com/offsettui/offsettui/internal/reset"
)

// The MCP tools cannot write by construction: what they reach a cluster through has only
// reads and plans (mcpserver.Cluster: Describe, Check, Plan), and the plans are made on a
// planReader, which is no reset.Cluster (it has no commit, delete or alter), though the
// Kafka client it wraps is one. A write method added to either fails here.
func TestMCPCannotWrite(t *testing.T) {
	var methods []string
	ct := reflect.TypeFor[mcpserver.Cluster]()
	for i := range ct.NumMethod() {
		methods = append(methods, ct.Method(i).Name)
	}
	if !reflect.DeepEqual(methods, []string{"Check", "Describe", "Plan"}) {
		t.Errorf("mcpserver.Cluster has %v; want Check, Describe and Plan only", methods)
	}
	if _, ok := any(planReader{}).(reset.Cluster); ok {
		t.Error("planReader is a reset.Cluster: a plan made for MCP could be executed")
	}
	if _, ok := any(&kafka.Client{}).(reset.Cluster); !ok {
		t.Error("the Kafka client is no reset.Cluster: the check above proves nothing")
	}
	rt := reflect.TypeFor[planReader]()
	for i := range rt.NumMethod() {
		switch name := rt.Method(i).Name; name {
		case "ReadPlanInput", "TargetTimestamps", "ShareUnwritable", "CommitsSeen":
		default:
			t.Errorf("planReader has method %s: it may only read", name)
		}
	}
}
