package clustertest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/offsettui/offsettui/internal/testsupport/realcluster"
)

// TestRealClusterServeWholeClusterKilled: `offsettui serve` over the three-node cluster,
// every node killed with kill -9: offsettui_up goes to 0 within one interval and the
// snapshot's --timeout, and the group's series go (never its last value as current); the
// nodes started again, the same process shows up 1 and the group's lag again
// (docs/metrics.md, "a cluster that cannot be read").
func TestRealClusterServeWholeClusterKilled(t *testing.T) {
	c := realcluster.Get(t)
	topic, group := fmt.Sprintf("serve-kill-%d", time.Now().UnixNano()), fmt.Sprintf("serve-kill-grp-%d", time.Now().UnixNano())
	c.CreateTopic(topic, 1, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	recs := make([]*kgo.Record, 10)
	for i := range recs {
		recs[i] = &kgo.Record{Topic: topic, Partition: 0, Value: []byte("v")}
	}
	if err := c.Client.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	var offs kadm.Offsets
	offs.Add(kadm.Offset{Topic: topic, Partition: 0, At: 4, LeaderEpoch: -1})
	if _, err := c.Adm.CommitOffsets(ctx, group, offs); err != nil {
		t.Fatal(err)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	const interval, timeout = 2 * time.Second, 2 * time.Second
	serve := exec.Command(offsettui, "serve", "--bootstrap-server", c.Bootstrap, "--listen", addr,
		"--interval", interval.String(), "--timeout", timeout.String())
	var stderr syncWriter
	serve.Stderr = &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = serve.Process.Kill()
		_ = serve.Wait()
		t.Logf("serve's stderr:\n%s", stderr.String())
	}()
	metrics := func() string {
		resp, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	up := func(v string) func(string) bool {
		return func(m string) bool { return strings.Contains(m, `offsettui_up{cluster="`+c.Bootstrap+`"} `+v+"\n") }
	}
	lag := `offsettui_group_lag{cluster="` + c.Bootstrap + `",group="` + group + `",type="classic"} 6` + "\n"
	waitFor := func(d time.Duration, what string, ok func(string) bool) time.Duration {
		t.Helper()
		start := time.Now()
		for time.Since(start) < d {
			if ok(metrics()) {
				return time.Since(start)
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Fatalf("%s not seen within %s; /metrics:\n%s", what, d, grepLines(metrics(), "offsettui_up", "offsettui_group_lag{"))
		return 0
	}
	waitFor(time.Minute, "the group's lag", func(m string) bool { return up("1")(m) && strings.Contains(m, lag) })

	killing := time.Now()
	for id := range c.Nodes {
		c.Kill(id)
	}
	killed := time.Since(killing)
	took := waitFor(30*time.Second, "up 0", up("0"))
	t.Logf("the nodes killed one after another over %s; offsettui_up 0 %s after the last", killed.Round(10*time.Millisecond), took.Round(10*time.Millisecond))
	if bound := interval + timeout + time.Second; took > bound {
		t.Errorf("up went to 0 %s after the kill; want within one interval and the snapshot's --timeout (%s)", took, bound)
	}
	if m := metrics(); strings.Contains(m, "offsettui_group_") {
		t.Errorf("the dead cluster's group series are still served:\n%s", grepLines(m, "offsettui_group_"))
	}

	var ids []int32
	for id := range c.Nodes {
		ids = append(ids, id)
	}
	c.StartNodes(ids...)
	c.WaitInSync(false)
	back := waitFor(time.Minute, "up 1 and the group's lag again", func(m string) bool { return up("1")(m) && strings.Contains(m, lag) })
	t.Logf("%s; the nodes started again: up 1 and the lag back %s after the cluster was in sync, without a restart of serve",
		c.Tally(), back.Round(10*time.Millisecond))
}

// grepLines returns the lines of text that start with any of prefixes.
func grepLines(text string, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
