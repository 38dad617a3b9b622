package kafka

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafkatest"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestShareUnwritableFailsClosed: a coordinator whose versions cannot be learned (not in
// the metadata, or not reachable before the deadline) blocks a share-group reset, since
// only its versions tell a Kafka 4.1 (which writes nothing) from a 4.2.
func TestShareUnwritableFailsClosed(t *testing.T) {
	k := kafkatest.Cluster(t)
	cl, err := New(Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		name        string
		ctx         context.Context
		coordinator int32
	}{
		{"coordinator not in the metadata", context.Background(), 999},
		{"deadline passed before its versions were read", done, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			why := cl.shareUnwritable(c.ctx, c.coordinator)
			if !strings.Contains(why, "could not learn the versions of broker") {
				t.Fatalf("blocker %q, want one saying the versions could not be learned", why)
			}
		})
	}
}

// TestWireTimeoutDropsTheBroker: a broker that never answers a request of the wire client
// costs one --timeout, worded as such (not "read tcp …: i/o timeout"), and is dropped for
// the rest of the snapshot as a sarama request's timeout drops it.
func TestWireTimeoutDropsTheBroker(t *testing.T) {
	k := kafkatest.Cluster(t)
	k.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		_, share := req.(*kmsg.ShareGroupDescribeRequest)
		return nil, nil, share && k.CurrentNode() == 1 // silence
	})
	const timeout = time.Second
	cl, err := New(Config{Bootstrap: k.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	b, err := cl.broker(1)
	if err != nil {
		t.Fatal(err)
	}
	req := kmsg.NewPtrShareGroupDescribeRequest()
	req.GroupIDs = []string{"g"}
	_, err = cl.wireCall(context.Background(), b, req)
	if err == nil || !errors.Is(err, errRequestTimeout) || strings.Contains(err.Error(), "i/o timeout") {
		t.Fatalf("error %v; want the request timeout in words", err)
	}
	if _, err := cl.broker(1); err == nil || !strings.Contains(err.Error(), "failed a request moments ago") {
		t.Fatalf("broker 1 after a wire timeout: %v; want it dropped until the next snapshot", err)
	}
}
