package main

// What a principal limited by ACLs sees, on the real broker's SASL listener
// (scripts/kafka.sh): Kafka's OffsetFetch leaves out the commits on topics the
// principal may not describe, without a word. offsettui must say that its view
// may be partial, never show a lower bound as a total, and never PASS a check it
// cannot see whole.

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kadm"
)

// aclWorld is group g committed on a visible topic (lag 20) and on a hidden one
// where 15 records were deleted unread, group only committed on the hidden topic,
// and group denied that alice may not describe at all.
type aclWorld struct {
	addr, sasl, aliceProps           string
	visible, hidden, g, only, denied string
}

func newACLWorld(t *testing.T) aclWorld {
	t.Helper()
	w := aclWorld{addr: realkafka.Addr(t), sasl: realkafka.SASLAddr(t),
		visible: realkafka.Name("acl-visible"), hidden: realkafka.Name("acl-hidden"),
		g: realkafka.Name("acl-g"), only: realkafka.Name("acl-only"), denied: realkafka.Name("acl-denied")}
	s := realkafka.NewSeed(t, w.addr)
	s.CreateTopic(w.visible, 1, nil)
	s.CreateTopic(w.hidden, 1, nil)
	now := time.Now()
	s.ProduceN(w.visible, 0, 50, func(i int) time.Time { return now.Add(-time.Minute) })
	s.ProduceN(w.hidden, 0, 80, func(i int) time.Time { return now.Add(-time.Minute) })
	if err := s.DeleteRecords(w.hidden, 0, 15); err != nil {
		t.Fatal(err)
	}
	s.Commit(w.g, map[model.TP]int64{{Topic: w.visible, Partition: 0}: 30, {Topic: w.hidden, Partition: 0}: 0})
	s.Commit(w.only, map[model.TP]int64{{Topic: w.hidden, Partition: 0}: 0})
	s.Commit(w.denied, map[model.TP]int64{{Topic: w.visible, Partition: 0}: 10})
	s.Allow("User:alice", nil, []string{w.g, w.only}, kadm.OpDescribe, kadm.OpRead)
	s.Allow("User:alice", []string{w.visible}, nil, kadm.OpDescribe, kadm.OpDescribeConfigs)
	w.aliceProps = realkafka.SASLProperties(t, "alice", "alice-secret")
	return w
}

func (w aclWorld) asAlice(args ...string) []string {
	return append([]string{"--bootstrap-server", w.sasl, "--command-config", w.aliceProps}, args...)
}

// TestRealKafkaCheckRefusesWhatACLsHide: without --topic, check cannot know the
// group's partitions are all there are (exit 2, naming the limit and the fix);
// with --topic on the hidden topic it exits 2 with the authorization error; with
// --topic on the visible one it proves that topic. An admin sees the failure.
func TestRealKafkaCheckRefusesWhatACLsHide(t *testing.T) {
	w := newACLWorld(t)
	code, out, _ := ckRun(t, w.asAlice("--group", w.g)...)
	ckExpect(t, code, out, 2, "topics may be hidden from this principal", "grant Describe on all topics")
	if strings.HasPrefix(lastLine(out), "PASS") {
		t.Errorf("verdict %q", lastLine(out))
	}
	code, out, _ = ckRun(t, w.asAlice("--group", w.g, "--topic", w.hidden)...)
	ckExpect(t, code, out, 2, "TOPIC_AUTHORIZATION_FAILED")
	code, out, _ = ckRun(t, w.asAlice("--group", w.g, "--topic", w.visible)...)
	ckExpect(t, code, out, 0, "PASS "+w.g)
	code, out, _ = ckRun(t, "--bootstrap-server", w.addr, "--group", w.g)
	ckExpect(t, code, out, 1, "EXPIRED (lost 15)")
}

// TestRealKafkaDescribeUnderACLs: alice's describe says the view may be partial,
// gives the group's lag as a lower bound (20, where the whole is 20 + 80), shows
// the group whose only topic is hidden as unknown (not ok, not "no commits"),
// and a group she may not describe as denied with Kafka's code.
func TestRealKafkaDescribeUnderACLs(t *testing.T) {
	w := newACLWorld(t)
	var out, errb bytes.Buffer
	code := describeMain(w.asAlice("--group", w.g, "--group", w.only, "--group", w.denied, "-o", "json"), &out, &errb)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	if v := snap.Cluster.AllTopicsVisible; v == nil || *v {
		t.Errorf("allTopicsVisible = %v, want false", v)
	}
	if !hasError(snap.Errors, model.KindDenied, "TOPIC_AUTHORIZATION_FAILED", "") {
		t.Errorf("errors %+v lack the hidden-topics note", snap.Errors)
	}
	byName := map[string]model.Group{}
	for _, g := range snap.Groups {
		byName[g.Group] = g
	}
	if g := byName[w.g]; g.TotalLag != nil || text.Num(g.TotalLagAtLeast) != "20" {
		t.Errorf("%s: totalLag %s, at least %s; want null and 20", w.g, text.Num(g.TotalLag), text.Num(g.TotalLagAtLeast))
	}
	if g := byName[w.only]; g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
		t.Errorf("%s: worst %s, totalLag %s; want unknown and null", w.only, g.WorstStatus, text.Num(g.TotalLag))
	}
	if g := byName[w.denied]; g.Error == nil || g.Error.Kind != model.KindDenied || g.Error.Code == nil || *g.Error.Code != "GROUP_AUTHORIZATION_FAILED" {
		t.Errorf("%s: error %v, want denied GROUP_AUTHORIZATION_FAILED", w.denied, g.Error)
	}

	out.Reset()
	if code := describeMain([]string{"--bootstrap-server", w.addr, "--group", w.g, "-o", "json"}, &out, &errb); code != exitOK {
		t.Fatalf("admin describe: exit %d", code)
	}
	var whole model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &whole); err != nil {
		t.Fatal(err)
	}
	if v := whole.Cluster.AllTopicsVisible; v == nil || !*v || text.Num(whole.Groups[0].TotalLag) != "100" {
		t.Errorf("admin: allTopicsVisible %v, totalLag %s; want true and 100", v, text.Num(whole.Groups[0].TotalLag))
	}
}

func hasError(errs []model.Error, kind model.ErrorKind, code, group string) bool {
	for _, e := range errs {
		if e.Kind == kind && (code == "" || e.Code != nil && *e.Code == code) && (group == "" || e.Group != nil && *e.Group == group) {
			return true
		}
	}
	return false
}
