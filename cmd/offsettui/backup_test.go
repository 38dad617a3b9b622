package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// backup --all-groups fails only for what it cannot claim: a topic whose configs the
// principal may not read is an error of the snapshot, but every group's commits were read
// and saved (exit 0); a broker whose groups could not be listed is a NOT SAVED line and exit 1.
func TestBackupAllGroupsFailsOnlyForWhatItCannotClaim(t *testing.T) {
	c := newCkKafka(t)
	c.topic("t", 2, nil)
	c.produce("t", 0, 3, func(int) time.Time { return time.Now() })
	c.commit("g1", "t", map[int32]int64{0: 1})
	c.commit("g2", "t", map[int32]int64{0: 2, 1: 0})
	backup := func() (int, string) {
		var out, errb bytes.Buffer
		code := backupMain([]string{"--bootstrap-server", strings.Join(c.k.ListenAddrs(), ","), "--timeout", "10s",
			"--all-groups", "--dir", t.TempDir()}, &out, &errb)
		return code, out.String() + errb.String()
	}

	h := c.k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeConfigs}, Resource: "t", Err: kerr.TopicAuthorizationFailed, Count: -1})
	code, out := backup()
	h.Remove()
	if code != exitOK || strings.Contains(out, "NOT SAVED") || !strings.Contains(out, "saved      g1:") || !strings.Contains(out, "saved      g2: 2 positions") {
		t.Errorf("configs denied: exit %d, want 0 with both groups saved:\n%s", code, out)
	}

	h = c.k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListGroups}, Nodes: []int32{1}, Err: kerr.CoordinatorNotAvailable, Count: -1})
	code, out = backup()
	h.Remove()
	if code != exitFailure || !strings.Contains(out, "NOT SAVED  ") || !strings.Contains(out, "list groups") {
		t.Errorf("groups not listed: exit %d, want 1 with a NOT SAVED line for the listing:\n%s", code, out)
	}
}
