package kafka_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestSlowBrokerCostsOneTimeoutAndReconnects: a leader that answers later than the
// timeout makes its partitions unknown after one timeout (not one per lookup), and
// the next snapshot reconnects to it and reads it whole.
func TestSlowBrokerCostsOneTimeoutAndReconnects(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	s := kafkatest.NewSeed(t, k.ListenAddrs())
	s.ProduceN("t", 0, 5, tsAt(time.Now().Unix()))
	s.Commit("g", map[model.TP]int64{{Topic: "t", Partition: 0}: 2})
	const timeout = 2 * time.Second
	var slow atomic.Bool
	slow.Store(true)
	k.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		if slow.Load() {
			k.SleepControl(func() { time.Sleep(3 * timeout) })
		}
		return nil, nil, false
	})
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	start := time.Now()
	snap, err := cl.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d >= 2*timeout { // one timeout per lookup would be four
		t.Errorf("first snapshot took %v; one %v timeout should bound it", d, timeout)
	}
	p := findPartition(t, findGroup(t, snap, "g"), "t", 0)
	if p.Status != model.StatusUnknown || p.Error == nil || p.Error.Kind != model.KindTimeout {
		t.Fatalf("t-0: %v %+v; want unknown with a timeout", p.Status, p.Error)
	}
	slow.Store(false)
	snap, err = cl.Snapshot(context.Background(), model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	p = findPartition(t, findGroup(t, snap, "g"), "t", 0)
	if p.Status != model.StatusOK || p.Lag == nil || *p.Lag != 3 || len(snap.Errors) != 0 {
		t.Errorf("second snapshot: t-0 %v lag %v errors %+v; want ok, lag 3, no errors", p.Status, val(p.Lag), snap.Errors)
	}
}
