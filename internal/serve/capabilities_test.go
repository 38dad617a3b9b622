package serve

import (
	"errors"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestKafkaVersionSeries: the brokers' version line and each question they cannot be asked are
// info series while the cluster is read; none when the versions are not known, and none while
// the cluster cannot be read.
func TestKafkaVersionSeries(t *testing.T) {
	clk := &fixedClock{now: t0}
	snap := snapshotAt(t0, group("billing", 1, part("orders", 0, 90, 100, model.StatusOK)))
	snap.Cluster.KafkaVersion = model.Ptr(model.KafkaLine28)
	snap.Cluster.Capabilities = []model.Capability{
		{Missing: model.CapabilityBatchedFetch, API: "OffsetFetch", Consequence: "…"},
		{Missing: model.CapabilityStreamsGroups, API: "StreamsGroupDescribe", Consequence: "…"},
	}
	src := &scripted{snap: snap}
	e := newTestExporter(t, src, clk, 0)
	p := e.pollers[0]
	p.take(t.Context())
	got := lines(t, e, "offsettui_")
	for _, want := range []string{
		`offsettui_kafka_version_info{cluster="prod",kafka_version="2.8"} 1`,
		`offsettui_capability_missing_info{api="OffsetFetch",cluster="prod",missing="batched-offset-fetch"} 1`,
		`offsettui_capability_missing_info{api="StreamsGroupDescribe",cluster="prod",missing="streams-groups"} 1`,
	} {
		if !has(got, want) {
			t.Errorf("missing %s in:\n%s", want, strings.Join(got, "\n"))
		}
	}

	src.snap.Cluster.KafkaVersion, src.snap.Cluster.Capabilities = nil, []model.Capability{}
	clk.now = t0.Add(30e9)
	p.take(t.Context())
	got = lines(t, e, "offsettui_")
	if !has(got, `offsettui_kafka_version_info{cluster="prod",kafka_version="before-2.8"} 1`) || len(lines(t, e, "offsettui_capability_missing_info")) != 0 {
		t.Errorf("versions before 2.8 with nothing missing:\n%s", strings.Join(got, "\n"))
	}

	src.snap.Cluster.Capabilities = nil
	clk.now = t0.Add(60e9)
	p.take(t.Context())
	if n := len(lines(t, e, "offsettui_kafka_version_info")); n != 0 {
		t.Errorf("versions not known: %d version series", n)
	}

	src.snap.Cluster.Capabilities = snap.Cluster.Capabilities
	p.take(t.Context())
	src.err = errors.New("no broker answered ListGroups")
	clk.now = t0.Add(90e9)
	p.take(t.Context())
	if n := len(lines(t, e, "offsettui_kafka_version_info")) + len(lines(t, e, "offsettui_capability_missing_info")); n != 0 {
		t.Errorf("cluster not read: %d version and capability series", n)
	}
}
