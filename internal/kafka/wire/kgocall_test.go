package wire

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/kversion"
)

// shareDescribe is a ShareGroupDescribe of group g.
func shareDescribe() *kmsg.ShareGroupDescribeRequest {
	req := kmsg.NewPtrShareGroupDescribeRequest()
	req.GroupIDs = []string{"g"}
	return req
}

// TestKgoTimeoutDropsTheBroker: a broker that never answers a kgo request costs one
// --timeout, worded as such (not "read tcp …: i/o timeout"), and is dropped for the rest of
// the snapshot as a sarama request's timeout drops it.
func TestKgoTimeoutDropsTheBroker(t *testing.T) {
	k := kafkatest.Cluster(t)
	k.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		_, share := req.(*kmsg.ShareGroupDescribeRequest)
		return nil, nil, share && k.CurrentNode() == 1 // silence
	})
	const timeout = time.Second
	cl, err := Dial(context.Background(), Config{Bootstrap: k.ListenAddrs(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	b, err := cl.Broker(1)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = cl.KgoRead(context.Background(), b, shareDescribe())
	if d := time.Since(start); d > timeout+timeout/2 {
		t.Errorf("the request took %v; --timeout is %v", d, timeout)
	}
	if err == nil || !errors.Is(err, ErrRequestTimeout) || strings.Contains(err.Error(), "i/o timeout") {
		t.Fatalf("error %v; want the request timeout in words", err)
	}
	if _, err := cl.Broker(1); err == nil || !strings.Contains(err.Error(), "failed a request moments ago") {
		t.Fatalf("broker 1 after a kgo timeout: %v; want it dropped until the next snapshot", err)
	}
}

// TestKgoDroppedConnectionKeepsTheBroker: a connection that drops on one request (kfake
// closes it) is tried once more on a fresh one; when that drops too, the request fails, and
// the broker, which answers, stays in the snapshot for every other request.
func TestKgoDroppedConnectionKeepsTheBroker(t *testing.T) {
	k := kafkatest.Cluster(t)
	var cuts atomic.Int32
	k.Control(func(req kmsg.Request) (kmsg.Response, error, bool) {
		k.KeepControl()
		if _, share := req.(*kmsg.ShareGroupDescribeRequest); share && k.CurrentNode() == 1 {
			cuts.Add(1)
			return nil, errors.New("cut"), true // kfake closes the connection
		}
		return nil, nil, false
	})
	cl, err := Dial(context.Background(), Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	b, err := cl.Broker(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = cl.KgoRead(context.Background(), b, shareDescribe()); err == nil || errors.Is(err, ErrRequestTimeout) {
		t.Fatalf("error %v; want the dropped connection", err)
	}
	if n := cuts.Load(); n != 2 {
		t.Errorf("the request was sent %d times; want 2 (once more on a fresh connection)", n)
	}
	if _, err := cl.Broker(1); err != nil {
		t.Fatalf("broker 1 after a dropped connection: %v; want it kept", err)
	}
	if _, err := cl.KgoRead(context.Background(), b, kmsg.NewPtrDescribeGroupsRequest()); err != nil {
		t.Errorf("another request to broker 1: %v", err)
	}
}

// TestKgoNegotiatesVersions: the version sent is the highest both sides know (never
// assumed); a request the broker lacks fails as unsupported without being sent, and keeps
// the broker.
func TestKgoNegotiatesVersions(t *testing.T) {
	for _, tt := range []struct {
		name    string
		max     int16 // -1: the broker lacks ShareGroupDescribe
		want    int16
		wantErr error
	}{
		{"broker at v0", 0, 0, nil},
		{"broker at v1", 1, 1, nil},
		{"broker without the request", -1, 0, ErrUnsupported},
	} {
		t.Run(tt.name, func(t *testing.T) {
			vs := kversion.Stable()
			vs.SetMaxKeyVersion(int16(kmsg.ShareGroupDescribe), tt.max)
			k, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.MaxVersions(vs))
			if err != nil {
				t.Fatal(err)
			}
			defer k.Close()
			var got atomic.Int32
			got.Store(-1)
			k.ControlKey(int16(kmsg.ShareGroupDescribe), func(r kmsg.Request) (kmsg.Response, error, bool) {
				k.KeepControl()
				got.Store(int32(r.GetVersion()))
				return nil, nil, false
			})
			cl, err := Dial(context.Background(), Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			b := cl.Brokers()[0]
			_, err = cl.KgoRead(context.Background(), b, shareDescribe())
			sent := int16(got.Load())
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && sent != tt.want) || (tt.wantErr != nil && sent != -1) {
				t.Errorf("error %v, version sent %d; want error %v and version %d", err, sent, tt.wantErr, tt.want)
			}
			if _, err := cl.Broker(b.ID()); err != nil {
				t.Errorf("broker after the request: %v; want it kept", err)
			}
		})
	}
}
