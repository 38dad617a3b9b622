package demo

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// observe counts the requests of one API key the brokers receive, without
// interfering with them.
func observe(c *Cluster, key int16) *atomic.Int64 {
	var n atomic.Int64
	c.Fake().ControlKey(key, func(kmsg.Request) (kmsg.Response, error, bool) {
		n.Add(1)
		return nil, nil, false
	})
	return &n
}

func fetchCommits(t *testing.T, adm *kadm.Client, group string) map[int32]int64 {
	t.Helper()
	got, err := adm.FetchOffsets(t.Context(), group)
	if err != nil {
		t.Fatalf("fetch offsets of %s: %v", group, err)
	}
	out := map[int32]int64{}
	got.Each(func(o kadm.OffsetResponse) { out[o.Partition] = o.At })
	return out
}

func equalOffsets(a, b map[int32]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for p, o := range a {
		if b[p] != o {
			return false
		}
	}
	return true
}

// TestLiveMembersNeverCommit watches the brokers while the live members run
// and leave: no OffsetCommit at all, billing's commits as seeded, and no
// rebalance while they run.
func TestLiveMembersNeverCommit(t *testing.T) {
	c, err := Start(t.Context(), Options{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	commits := observe(c, kmsg.OffsetCommit.Int16())
	txnCommits := observe(c, kmsg.TxnOffsetCommit.Int16())
	joins := observe(c, kmsg.JoinGroup.Int16())
	heartbeats := observe(c, kmsg.Heartbeat.Int16())

	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Bootstrap()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	want := Commits()[GroupBilling][TopicOrders]

	// Until both members have been heard from (one 3 s heartbeat interval each).
	for deadline := time.Now().Add(15 * time.Second); heartbeats.Load() < 2; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d heartbeats in 15 s, want at least one per live member", heartbeats.Load())
		}
	}
	if got := fetchCommits(t, adm, GroupBilling); !equalOffsets(got, want) {
		t.Errorf("billing while its member runs: %v, want %v", got, want)
	}
	if n := joins.Load(); n != 0 {
		t.Errorf("%d JoinGroup requests after Start: the live groups are rebalancing", n)
	}

	c.stopMembers()
	if got := fetchCommits(t, adm, GroupBilling); !equalOffsets(got, want) {
		t.Errorf("billing after its member left: %v, want %v", got, want)
	}
	if got := fetchCommits(t, adm, GroupNewSvc); len(got) != 0 {
		t.Errorf("new-svc after its member left: %v, want no commits", got)
	}
	described, err := adm.DescribeGroups(t.Context(), LiveGroups()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range LiveGroups() {
		if d := described[g]; d.State != "Empty" || len(d.Members) != 0 {
			t.Errorf("%s after stopMembers: %s with %d members, want Empty", g, d.State, len(d.Members))
		}
	}
	c.Close()
	c.Close() // idempotent
	if n := commits.Load() + txnCommits.Load(); n != 0 {
		t.Errorf("the brokers received %d offset commits after Start, want none", n)
	}
}

// TestCloseLeavesNoGoroutines expects the goroutines to come back down to
// those running before Start once Close returns: the seeding client, the
// members and the brokers all stop.
func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := len(goroutines())
	c, err := Start(t.Context(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	during := len(goroutines())
	c.Close()
	c.Close() // idempotent
	var left []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left = goroutines()
		if len(left) <= before || time.Now().After(deadline) {
			break
		}
	}
	t.Logf("goroutines: %d before Start, %d while running, %d after Close", before, during, len(left))
	if len(left) > before {
		t.Errorf("%d goroutines before Start, %d after Close:\n%s", before, len(left), strings.Join(left, "\n\n"))
	}
}

// goroutines returns the stacks of the running goroutines.
func goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	return strings.Split(string(buf), "\n\n")
}

func TestStartCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	c, err := Start(ctx, Options{})
	if err == nil {
		c.Close()
		t.Fatal("Start with a canceled context succeeded")
	}
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "seed demo cluster") {
		t.Errorf("Start with a canceled context: %v, want context.Canceled with context", err)
	}
}
