package groupread

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// TestShareUnwritableFailsClosed: a coordinator whose versions cannot be learned (not in
// the metadata, or not reachable before the deadline) blocks a share-group reset, since
// only its versions tell a Kafka 4.1 (which writes nothing) from a 4.2.
func TestShareUnwritableFailsClosed(t *testing.T) {
	k := kafkatest.Cluster(t)
	conn, err := wire.Dial(context.Background(), wire.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	cl := New(conn)
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
			why := cl.ShareUnwritableAt(c.ctx, c.coordinator)
			if !strings.Contains(why, "could not learn the versions of broker") {
				t.Fatalf("blocker %q, want one saying the versions could not be learned", why)
			}
		})
	}
}
