package main

// The corners of issue 18 as the CLI shows them, on real brokers (Kafka 4.4.0 and the oldest
// 4.x supported), with shapes built by Kafka's own Java clients (internal/testsupport/realkafka): a
// Stable group's stale topic, and read_committed consumers after transactions.

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// describeGroups runs `offsettui describe --bootstrap-server addr --group G... -o json`.
func describeGroups(t *testing.T, addr string, groups ...string) model.Snapshot {
	t.Helper()
	args := []string{"--bootstrap-server", addr, "--timeout", "30s"}
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	code, s, stderr := describeJSON(t, args...)
	if code != exitOK {
		t.Fatalf("describe %v: exit %d\n%s", args, code, stderr)
	}
	return s
}

// checkJSON runs `offsettui check --bootstrap-server addr args... -o json`.
func checkJSON(t *testing.T, addr string, args ...string) (int, check.Result) {
	t.Helper()
	args = append([]string{"--bootstrap-server", addr, "-o", "json", "--timeout", "30s"}, args...)
	var out, errb bytes.Buffer
	code := checkMain(args, &out, &errb)
	var r check.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("check %v: exit %d, %v\n%s%s", args, code, err, out.String(), errb.String())
	}
	return code, r
}

func groupOf(t *testing.T, s model.Snapshot, name string) model.Group {
	t.Helper()
	for _, g := range s.Groups {
		if g.Group == name {
			return g
		}
	}
	t.Fatalf("group %s is not in the snapshot", name)
	return model.Group{}
}

// A Stable classic group whose member subscribes to one topic and holds an old commit on
// another, below its log start: the stale partition is shown (Kafka's CLI numbers: lag 80)
// and marked not consumed, the group's total is the active topic's alone, and check passes
// naming it; check --topic on the stale topic judges it and fails.
func TestRealKafkaStaleTopicNotConsumed(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		sh := b.StaleTopic(t)
		g := groupOf(t, describeGroups(t, b.Addr, sh.Group), sh.Group)
		var stale, active *model.GroupPartition
		for i := range g.Partitions {
			switch p := &g.Partitions[i]; p.Topic {
			case sh.Stale:
				stale = p
			case sh.Active:
				active = p
			}
		}
		if g.State != "Stable" || stale == nil || active == nil || len(g.Members) != 1 {
			t.Fatalf("%s: state %s, %d members, partitions %+v", sh.Group, g.State, len(g.Members), g.Partitions)
		}
		if sub := g.Members[0].Subscription; sub == nil || !slices.Equal(sub.Topics, []string{sh.Active}) {
			t.Errorf("member subscription %+v, want [%s]", sub, sh.Active)
		}
		if val(stale.Subscribed) != false || val(active.Subscribed) != true {
			t.Errorf("subscribed: stale %v, active %v; want false and true", val(stale.Subscribed), val(active.Subscribed))
		}
		if stale.Status != model.StatusExpired || val(stale.Committed) != sh.StaleCommitted || val(stale.Low) != sh.StaleLogStart ||
			val(stale.Lag) != sh.StaleHigh-sh.StaleCommitted || val(stale.Lost()) != sh.StaleLogStart-sh.StaleCommitted {
			t.Errorf("stale partition: status %s committed %v low %v lag %v lost %v; want expired %d %d, lag %d (Kafka's CLI LAG), lost %d",
				stale.Status, val(stale.Committed), val(stale.Low), val(stale.Lag), val(stale.Lost()),
				sh.StaleCommitted, sh.StaleLogStart, sh.StaleHigh-sh.StaleCommitted, sh.StaleLogStart-sh.StaleCommitted)
		}
		if g.TotalLag == nil || *g.TotalLag != max(0, val(active.Lag)) || g.WorstStatus != active.Status ||
			!slices.Equal(g.UnsubscribedTopics, []string{sh.Stale}) || g.Counts[model.StatusExpired] != 0 {
			t.Errorf("group: totalLag %v worst %s counts %v unsubscribed %v; want the active partition's lag %v and status %s, [%s]",
				val(g.TotalLag), g.WorstStatus, g.Counts, g.UnsubscribedTopics, val(active.Lag), active.Status, sh.Stale)
		}
		t.Logf("%s: stale %s-0 committed %d, low %d, lag %d shown and not consumed; group total %d",
			b.Name(), sh.Stale, val(stale.Committed), val(stale.Low), val(stale.Lag), val(g.TotalLag))

		code, r := checkJSON(t, b.Addr, "--group", sh.Group)
		var note bool
		for _, n := range r.Notes {
			note = note || n.Code == check.CodeNotConsumed && strings.Contains(n.Message, sh.Stale)
		}
		if code != 0 || r.Verdict != check.VerdictPass || !note || !strings.Contains(r.Summary, "not consumed, not judged: "+sh.Stale) {
			t.Errorf("check: exit %d verdict %s notes %+v summary %q; want pass naming %s", code, r.Verdict, r.Notes, r.Summary, sh.Stale)
		}
		code, r = checkJSON(t, b.Addr, "--group", sh.Group, "--topic", sh.Stale)
		if code != 1 || r.Verdict != check.VerdictFail || len(r.Partitions) != 1 || r.Partitions[0].Reasons[0].Code != check.CodeExpired {
			t.Errorf("check --topic %s: exit %d verdict %s %+v; want fail (expired)", sh.Stale, code, r.Verdict, r.Partitions)
		}
	})
}

func val[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// read_committed consumers of both commit styles after 10 committed transactions, and after
// a committed then an aborted one, built with Kafka's own producer and consumers: every
// group is caught up (lag 0; the markers and aborted records counted, Kafka's CLI LAG kept
// beside), the sampled evaluation of the groups that committed "last record + 1" — Empty
// ones and one that stays Stable — is ok and caught up, never stopped or stalled, and check
// passes.
func TestRealKafkaTransactionMarkersCaughtUp(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		tx := b.Transactions(t)
		ab := b.TransactionsAborted(t)
		live := realkafka.Name("txn-live")
		b.Member(t, realkafka.ConsumeSpec{Group: live, Topic: tx.Topic, ReadCommitted: true, Style: "last-plus-one"})
		want := map[string]*model.TransactionMarkers{ // nil: committed at high, no markers between
			tx.PositionGroup: nil, tx.LastPlusOneGroup: {ControlRecords: 1, KafkaLag: 1}, live: {ControlRecords: 1, KafkaLag: 1},
			ab.PositionGroup: nil, ab.LastPlusOneGroup: {ControlRecords: 2, AbortedRecords: 5, KafkaLag: 7},
		}
		// Kafka's CLI: LOG-END-OFFSET at read_uncommitted, LAG = high − committed.
		cli := map[string]string{}
		for _, g := range []string{tx.LastPlusOneGroup, live, ab.LastPlusOneGroup} {
			out := b.Tool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", b.Addr, "--timeout", "30000", "--describe", "--group", g)
			for _, r := range realkafka.TableRows(out, "GROUP", "CURRENT-OFFSET", "LAG") {
				cli[r["GROUP"]] = r["LAG"]
			}
		}
		groups := slices.Sorted(maps.Keys(want))
		args := []string{"--bootstrap-server", b.Addr, "--timeout", "30s", "--sample", "4s", "--interval", "1s", "--stall-after", "2s"}
		for _, g := range groups {
			args = append(args, "--group", g)
		}
		code, snap, stderr := describeJSON(t, args...)
		if code != exitOK {
			t.Fatalf("describe %v: exit %d\n%s", args, code, stderr)
		}
		for _, name := range groups {
			g := groupOf(t, snap, name)
			if len(g.Partitions) != 1 {
				t.Errorf("%s: %d partitions, want 1", name, len(g.Partitions))
				continue
			}
			p := g.Partitions[0]
			w := want[name]
			if val(p.Lag) != 0 || p.Status != model.StatusOK || val(g.TotalLag) != 0 || (w == nil) != (p.TransactionMarkers() == nil) ||
				(w != nil && *w != *p.TransactionMarkers()) {
				t.Errorf("%s: committed %v high %v lag %v status %s markers %+v total %v; want lag 0, ok, markers %+v",
					name, val(p.Committed), val(p.High), val(p.Lag), p.Status, p.TransactionMarkers(), val(g.TotalLag), w)
			}
			if w != nil && cli[name] != strconv.FormatInt(w.KafkaLag, 10) {
				t.Errorf("%s: Kafka's CLI LAG %q, offsettui keeps %d beside lag 0", name, cli[name], w.KafkaLag)
			}
			if g.Time == nil || g.Time.Evaluation != model.EvalOK || g.Time.ETA != model.ETACaughtUp {
				t.Errorf("%s (%s, %d members): time axis %+v, want ok and caught up (never stopped or stalled)", name, g.State, len(g.Members), g.Time)
			}
			t.Logf("%s: %s, %d members: committed %d of high %d, lag %d, markers %+v, Kafka's CLI LAG %s, evaluation %s",
				b.Name(), name, len(g.Members), val(p.Committed), val(p.High), val(p.Lag), p.TransactionMarkers(), cli[name], g.Time.Evaluation.Badge())
		}
		for _, g := range []string{tx.LastPlusOneGroup, ab.LastPlusOneGroup} {
			if code, r := checkJSON(t, b.Addr, "--group", g); code != 0 || r.Verdict != check.VerdictPass {
				t.Errorf("check %s: exit %d %s (%s), want pass", g, code, r.Verdict, r.Summary)
			}
		}
	})
}
