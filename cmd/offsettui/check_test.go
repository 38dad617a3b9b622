package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// ckKafka is a 3-broker kfake cluster plus an independent franz-go client that
// builds its known truth; the check under test reads it only through its flags.
type ckKafka struct {
	t    *testing.T
	k    *kfake.Cluster
	seed *kafkatest.Seed
}

func newCkKafka(t *testing.T, opts ...kfake.Opt) *ckKafka {
	t.Helper()
	k := kafkatest.Cluster(t, opts...)
	return &ckKafka{t: t, k: k, seed: kafkatest.NewSeed(t, k.ListenAddrs())}
}

// topic creates a topic with topic-level config overrides (nil: broker defaults).
func (c *ckKafka) topic(name string, partitions int32, configs map[string]string) {
	c.t.Helper()
	if err := c.k.CreateTopic(name, partitions, configs); err != nil {
		c.t.Fatalf("create %s: %v", name, err)
	}
}

// produce writes n records to one partition, record i stamped ts(i), one batch
// (one request) per record so that retention can delete them one by one.
func (c *ckKafka) produce(topic string, partition int32, n int, ts func(i int) time.Time) {
	c.t.Helper()
	for i := range n {
		c.seed.Produce(topic, partition, ts(i))
	}
}

// deleteTo moves a partition's log start to offset (DeleteRecords).
func (c *ckKafka) deleteTo(topic string, partition int32, offset int64) {
	c.t.Helper()
	if err := c.seed.DeleteRecords(topic, partition, offset); err != nil {
		c.t.Fatalf("delete records %s-%d to %d: %v", topic, partition, offset, err)
	}
}

// commit writes a group's offsets on one topic as an admin would (no member,
// generation -1).
func (c *ckKafka) commit(group, topic string, offs map[int32]int64) {
	c.t.Helper()
	tps := make(map[model.TP]int64, len(offs))
	for p, off := range offs {
		tps[model.TP{Topic: topic, Partition: p}] = off
	}
	c.seed.Commit(group, tps)
}

// check runs `offsettui check --bootstrap-server <cluster> args...`.
func (c *ckKafka) check(args ...string) (int, string, string) {
	c.t.Helper()
	return ckRun(c.t, append([]string{"--bootstrap-server", strings.Join(c.k.ListenAddrs(), ",")}, args...)...)
}

// ckRun runs the check command with captured output.
func ckRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := checkMain(args, &out, &errb)
	t.Logf("offsettui check %s → exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	return code, out.String(), errb.String()
}

// ckExpect fails unless the exit code is want and stdout contains every part;
// runs of white space compare equal, so table rows can be written "t 0 5 2 10".
func ckExpect(t *testing.T, code int, stdout string, want int, parts ...string) {
	t.Helper()
	if code != want {
		t.Errorf("exit %d, want %d", code, want)
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, p := range parts {
		if !strings.Contains(norm(stdout), norm(p)) {
			t.Errorf("output lacks %q", p)
		}
	}
}

// lastLine is the verdict line of table output.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func recent(i int) time.Time { return time.Now().Add(-time.Hour + time.Duration(i)*time.Second) }

// TestCheckAllPass: every partition committed within [low, high] on a topic with
// no retention override: the broker default (7d) is what the proof uses.
func TestCheckAllPass(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 2, nil)
	c.produce("t", 0, 10, recent)
	c.produce("t", 1, 6, recent)
	c.commit("g", "t", map[int32]int64{0: 10, 1: 4})
	code, out, _ := c.check("--group", "g")
	ckExpect(t, code, out, 0)
	if l := lastLine(out); l != "PASS g: 2 partitions proven (retention 7d)" || strings.Count(out, "\n") != 1 {
		t.Errorf("output %q, want only the verdict line", out)
	}
	code, out, _ = c.check("--group", "g", "--recovery-window", "P3D")
	ckExpect(t, code, out, 0, "retention 7d covers the 3d recovery window")
	if code, _, _ = c.check("--group", "g", "--recovery-window", "192h"); code != 1 {
		t.Errorf("recovery window 8d on the 7d broker default: exit %d, want 1", code)
	}
}

// TestCheckExpired: the incident. Retention deleted records the group had not
// read (kfake applies retention.ms to old batches); the check names them.
func TestCheckExpired(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("outbox", 1, map[string]string{"retention.ms": fmt.Sprint(time.Hour.Milliseconds())})
	c.produce("outbox", 0, 5, func(i int) time.Time { return time.Now().Add(-3 * time.Hour) })
	c.produce("outbox", 0, 5, func(i int) time.Time { return time.Now() })
	c.commit("fanout", "outbox", map[int32]int64{0: 2})
	c.k.ApplyRetention()
	code, out, _ := c.check("--group", "fanout", "--assume-reset", "earliest")
	ckExpect(t, code, out, 1, "outbox 0 5 2 10 EXPIRED (lost 3) FAIL",
		"FAIL fanout: 1 of 1 partitions fail (outbox-0 expired: 3 records 2..4 deleted before the group read them)")

	code, out, _ = c.check("--group", "fanout", "-o", "json")
	if code != 1 {
		t.Fatalf("json: exit %d", code)
	}
	var r check.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	p := r.Partitions[0]
	if r.Verdict != check.VerdictFail || r.ExitCode != 1 || p.Pass || p.Status != model.StatusExpired ||
		*p.Lost != 3 || *p.Low != 5 || *p.High != 10 || *p.Committed != 2 || p.Reasons[0].Code != check.CodeExpired {
		t.Errorf("json result %+v", r)
	}
	if !strings.Contains(p.Notes[0].Message, "latest (the client default) jumps to 10, skipping the 5 stored records 5..9") {
		t.Errorf("restart note %q", p.Notes[0].Message)
	}
}

// TestCheckAhead: a commit beyond the high watermark.
func TestCheckAhead(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 10, recent)
	c.commit("replay", "t", map[int32]int64{0: 15})
	code, out, _ := c.check("--group", "replay")
	ckExpect(t, code, out, 1, "AHEAD (+5)", "t-0 ahead: committed 15 is 5 beyond the high watermark 10")
}

// TestCheckMissingLowAboveZero: no commit on a partition whose log start moved:
// loss cannot be ruled out whatever auto.offset.reset is.
func TestCheckMissingLowAboveZero(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 2, nil)
	c.produce("t", 0, 10, recent)
	c.produce("t", 1, 10, recent)
	c.deleteTo("t", 1, 4)
	c.commit("g", "t", map[int32]int64{0: 10})
	for _, reset := range []string{"earliest", "latest", "none"} {
		code, out, _ := c.check("--group", "g", "--assume-reset", reset)
		ckExpect(t, code, out, 1, "t 1 4 - 10 MISSING FAIL",
			"FAIL g: 1 of 2 partitions fail (t-1 missing: no committed offset and the log starts at 4: records 0..3 were deleted, so loss cannot be ruled out")
	}
}

// TestCheckMissingLowZero: a group's first start (--topic, no commit at all) on a
// complete log passes only with --assume-reset earliest.
func TestCheckMissingLowZero(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 7, recent)
	for _, tc := range []struct {
		reset string
		code  int
		want  string
	}{
		{"earliest", 0, "PASS new: 1 partition proven"},
		{"latest", 1, "auto.offset.reset=latest (the client default) starts at the end, skipping every record written before the consumer starts: the 7 stored records 0..6"},
		{"none", 1, "auto.offset.reset=none makes the consumer refuse to start"},
	} {
		code, out, _ := c.check("--group", "new", "--topic", "t", "--assume-reset", tc.reset)
		ckExpect(t, code, out, tc.code, tc.want, "note: group new has no commits and no members")
	}
	code, out, _ := c.check("--group", "new", "--topic", "t") // the default is latest
	ckExpect(t, code, out, 1, "7 stored records 0..6")
}

// TestCheckAtRisk: the record at the commit is old enough for retention to delete
// it within the risk window, and not within a shorter one.
func TestCheckAtRisk(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("orders", 1, map[string]string{"retention.ms": fmt.Sprint((72 * time.Hour).Milliseconds())})
	c.produce("orders", 0, 5, func(i int) time.Time { return time.Now().Add(-71*time.Hour + time.Duration(i)*time.Minute) })
	c.commit("audit", "orders", map[int32]int64{0: 0})
	code, out, _ := c.check("--group", "audit")
	ckExpect(t, code, out, 1, "AT-RISK", "orders-0 at-risk: record 0, the next the group reads, can be deleted as soon as", "within the 1d risk window")
	code, out, _ = c.check("--group", "audit", "--risk-window", "30m")
	ckExpect(t, code, out, 0, "PASS audit")
}

// TestCheckRetentionShorterThanWindow: retention.ms that does not cover the
// recovery window fails even though every commit is fine now.
func TestCheckRetentionShorterThanWindow(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, map[string]string{"retention.ms": fmt.Sprint((24 * time.Hour).Milliseconds())})
	c.produce("t", 0, 3, recent)
	c.commit("g", "t", map[int32]int64{0: 3})
	code, out, _ := c.check("--group", "g", "--recovery-window", "P3D")
	ckExpect(t, code, out, 1, "retention too short: retention 1d (retention.ms=86400000) is shorter than the 3d recovery window")
	code, out, _ = c.check("--group", "g", "--recovery-window", "12h")
	ckExpect(t, code, out, 0, "retention 1d covers the 12h recovery window")
}

// TestCheckInfiniteRetention: retention.ms=-1 without a byte limit covers any
// window.
func TestCheckInfiniteRetention(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, map[string]string{"retention.ms": "-1"})
	c.produce("t", 0, 3, func(int) time.Time { return time.Now().Add(-400 * 24 * time.Hour) })
	c.commit("g", "t", map[int32]int64{0: 1})
	code, out, _ := c.check("--group", "g", "--recovery-window", "P365D")
	ckExpect(t, code, out, 0, "PASS g: 1 partition proven (infinite retention")
}

// TestCheckRetentionBytes: size-based retention cannot prove a recovery window.
func TestCheckRetentionBytes(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, map[string]string{"retention.bytes": "1048576"})
	c.produce("t", 0, 3, recent)
	c.commit("g", "t", map[int32]int64{0: 3})
	code, out, _ := c.check("--group", "g", "--recovery-window", "1h")
	ckExpect(t, code, out, 1, "size-based retention (retention.bytes=1048576)", "the 1h recovery window cannot be proved")
	code, out, _ = c.check("--group", "g")
	ckExpect(t, code, out, 0, "size-based retention (retention.bytes=1048576) can also delete records")
}

// TestCheckCompacted: a compact-only topic is not deleted by time.
func TestCheckCompacted(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("ledger", 1, map[string]string{"cleanup.policy": "compact"})
	c.produce("ledger", 0, 4, func(int) time.Time { return time.Now().Add(-30 * 24 * time.Hour) })
	c.commit("g", "ledger", map[int32]int64{0: 1})
	c.commit("fresh", "ledger", map[int32]int64{0: 0})
	// g read record 0, and the next it reads is 30 days old, past delete.retention.ms (1 day):
	// tombstones written after its position may be gone (docs/statuses.md#compacted-topics).
	code, out, _ := c.check("--group", "g", "--recovery-window", "P30D")
	ckExpect(t, code, out, 1, "may-miss-deletes: compacted topic: the group read up to 1 and may have missed deletes")
	code, out, _ = c.check("--group", "g", "--recovery-window", "P30D", "--ignore-missed-deletes")
	ckExpect(t, code, out, 0, "PASS g: 1 partition proven (compacted topic: the group read up to 1", "(--ignore-missed-deletes: the consumer does not care about deletes)")
	// A group at the first offset has read nothing: it bootstraps from the compacted state.
	code, out, _ = c.check("--group", "fresh", "--recovery-window", "P30D")
	ckExpect(t, code, out, 0, "PASS fresh: 1 partition proven (compacted (cleanup.policy=compact)")
}

// TestCheckCompactedReadFails: when the read at a commit on a compacted topic fails, the
// partition is unknown with the broker's error and the proof incomplete (exit 2), never a
// pass; --ignore-missed-deletes does not turn a read failure into a pass.
func TestCheckCompactedReadFails(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("ledger", 1, map[string]string{"cleanup.policy": "compact"})
	c.produce("ledger", 0, 4, recent)
	c.commit("g", "ledger", map[int32]int64{0: 1})
	c.k.ControlKey(int16(kmsg.Fetch), func(kreq kmsg.Request) (kmsg.Response, error, bool) {
		c.k.KeepControl()
		req := kreq.(*kmsg.FetchRequest)
		resp := req.ResponseKind().(*kmsg.FetchResponse)
		for _, rt := range req.Topics {
			st := kmsg.NewFetchResponseTopic()
			st.Topic, st.TopicID = rt.Topic, rt.TopicID
			for _, rp := range rt.Partitions {
				sp := kmsg.NewFetchResponseTopicPartition()
				sp.Partition, sp.ErrorCode = rp.Partition, kerr.KafkaStorageError.Code
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp, nil, true
	})
	for _, args := range [][]string{{"--group", "g"}, {"--group", "g", "--ignore-missed-deletes"}} {
		code, out, _ := c.check(args...)
		ckExpect(t, code, out, 2, "UNKNOWN", "KAFKA_STORAGE_ERROR", "read at the commit on a compacted topic")
	}
}

// TestCheckAuthorizationFailure: what cannot be read because of an ACL makes the
// proof incomplete (exit 2), even where another partition fails (2 outranks 1).
func TestCheckAuthorizationFailure(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 2, nil)
	c.produce("t", 0, 10, recent)
	c.produce("t", 1, 10, recent)
	c.deleteTo("t", 0, 5)
	c.commit("g", "t", map[int32]int64{0: 2, 1: 4})

	t.Run("group", func(t *testing.T) {
		// ControlKey answers the group's OffsetFetch with GROUP_AUTHORIZATION_FAILED.
		var done atomic.Bool
		defer done.Store(true)
		c.k.ControlKey(int16(kmsg.OffsetFetch), func(req kmsg.Request) (kmsg.Response, error, bool) {
			if done.Load() {
				c.k.DropControl()
				return nil, nil, false
			}
			c.k.KeepControl()
			r := req.(*kmsg.OffsetFetchRequest)
			resp := r.ResponseKind().(*kmsg.OffsetFetchResponse)
			resp.ErrorCode = kerr.GroupAuthorizationFailed.Code
			for _, g := range r.Groups {
				rg := kmsg.NewOffsetFetchResponseGroup()
				rg.Group = g.Group
				rg.ErrorCode = kerr.GroupAuthorizationFailed.Code
				resp.Groups = append(resp.Groups, rg)
			}
			return resp, nil, true
		})
		code, out, _ := c.check("--group", "g")
		ckExpect(t, code, out, 2, "INCOMPLETE g:", "cannot read the group", "GROUP_AUTHORIZATION_FAILED")
	})
	t.Run("partition", func(t *testing.T) {
		h := c.k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.ListOffsets}, Topic: "t", Partitions: []int32{1}, Err: kerr.TopicAuthorizationFailed, Count: -1})
		defer h.Remove()
		code, out, _ := c.check("--group", "g")
		ckExpect(t, code, out, 2, "t 0 5 2 10 EXPIRED (lost 3) FAIL",
			"t 1 - 4 - UNKNOWN INCOMPLETE",
			"INCOMPLETE g: 1 of 2 partitions could not be proven, 1 fail (t-1 unknown: cannot read: partition t-1 (denied): TOPIC_AUTHORIZATION_FAILED")
	})
	t.Run("topic configs", func(t *testing.T) {
		h := c.k.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.DescribeConfigs}, Resource: "t", Err: kerr.TopicAuthorizationFailed, Count: -1})
		defer h.Remove()
		code, out, _ := c.check("--group", "g")
		ckExpect(t, code, out, 2, "t 0 5 2 10 EXPIRED (lost 3) INCOMPLETE expired: 3 records 2..4 deleted before the group read them; topic config unreadable: the configs of topic t could not be read",
			"TOPIC_AUTHORIZATION_FAILED", "INCOMPLETE g: 2 of 2 partitions could not be proven")
	})
}

// TestCheckTimeout: a broker that answers later than --timeout leaves the proof
// incomplete, promptly. Not parallel: under -race with the other clusters busy a
// short timeout could hit an earlier request than the one slowed down here.
func TestCheckTimeout(t *testing.T) {
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 5, recent)
	c.commit("g", "t", map[int32]int64{0: 5})
	c.k.ControlKey(int16(kmsg.ListOffsets), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.k.KeepControl()
		c.k.SleepControl(func() { time.Sleep(12 * time.Second) })
		return nil, nil, false
	})
	start := time.Now()
	code, out, _ := c.check("--group", "g", "--timeout", "3s")
	ckExpect(t, code, out, 2, "t 0 - 5 - UNKNOWN INCOMPLETE unknown: cannot read: partition t-0", "(timeout): list offsets", "INCOMPLETE g: 1 of 1 partitions could not be proven")
	if d := time.Since(start); d >= 6*time.Second { // two timeouts; the stall is 12s
		t.Errorf("took %v: the 3s timeout did not bound the wait", d)
	}
}

// TestCheckGroupDoesNotExist: nothing to check is not a pass.
func TestCheckGroupDoesNotExist(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 5, recent)
	c.commit("other", "t", map[int32]int64{0: 5})
	code, out, _ := c.check("--group", "no-such-group")
	ckExpect(t, code, out, 2, "INCOMPLETE no-such-group: nothing to check: group no-such-group does not exist (no commits, no members)",
		"offsets.retention.minutes (10080 = 7d)")
	code, out, _ = c.check("--group", "no-such-group", "-o", "json")
	var r check.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if code != 2 || r.Verdict != check.VerdictIncomplete || len(r.Partitions) != 0 || r.Problems[0].Code != check.CodeNothingToCheck {
		t.Errorf("json: exit %d %+v", code, r)
	}
}

// TestCheckCommitsDeleted: a group whose commits are gone (as offsets.retention
// would leave it) has nothing to check.
func TestCheckCommitsDeleted(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 5, recent)
	c.commit("g", "t", map[int32]int64{0: 5})
	resp, err := c.seed.Adm.DeleteOffsets(context.Background(), "g", kadm.TopicsSet{"t": {0: {}}})
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := c.check("--group", "g")
	ckExpect(t, code, out, 2, "nothing to check", "deleted its commits")
}

// TestCheckTopicDoesNotExist: a --topic that is not there leaves the proof
// incomplete.
func TestCheckTopicDoesNotExist(t *testing.T) {
	t.Parallel()
	c := newCkKafka(t)
	c.topic("t", 1, nil)
	c.produce("t", 0, 5, recent)
	c.commit("g", "t", map[int32]int64{0: 5})
	code, out, _ := c.check("--group", "g", "--topic", "t", "--topic", "typo")
	ckExpect(t, code, out, 2, "incomplete: topic typo (--topic) does not exist (UNKNOWN_TOPIC_OR_PARTITION)", "INCOMPLETE g:")
	code, out, _ = c.check("--group", "g", "--topic", "t")
	ckExpect(t, code, out, 0, "PASS g: 1 partition proven")
}

// TestCheckUnreachable: no broker at the address: incomplete, with a verdict on
// stdout for the log.
func TestCheckUnreachable(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	code, out, _ := ckRun(t, "--bootstrap-server", addr, "--group", "g", "--timeout", "1s")
	ckExpect(t, code, out, 2, "INCOMPLETE g: the proof could not be completed (cannot connect")
}

// TestCheckBadFlags: bad values are refused, naming the flag, before connecting
// (the address would refuse a connection, and nothing is printed on stdout).
func TestCheckBadFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--group", "g", "--assume-reset", "foo"}, "--assume-reset: want earliest, latest or none"},
		{[]string{"--group", "g", "--recovery-window", "garbage"}, `--recovery-window: duration "garbage"`},
		{[]string{"--group", "g", "--recovery-window", "-1h"}, "--recovery-window: must not be negative"},
		{[]string{}, "--group: pass exactly one consumer group"},
		{[]string{"--group", "a", "--group", "b"}, "--group: pass exactly one consumer group to prove (got 2)"},
		{[]string{"--group", "g", "--topic", ""}, "--topic: empty topic name"},
	} {
		code, out, errOut := ckRun(t, append([]string{"--bootstrap-server", "127.0.0.1:1"}, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d stdout %q stderr %q; want 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if code := run([]string{"check", "--bootstrap-server", "127.0.0.1:1", "--group", "g", "--timeout", "soon"}, io.Discard, io.Discard); code != 2 {
		t.Errorf("--timeout soon: exit %d, want 2", code)
	}
}

// TestCheckDemo: the demo's fanout group lost 18 records; ship-svc is proven.
func TestCheckDemo(t *testing.T) {
	t.Parallel()
	code, out, _ := ckRun(t, "--demo", "--group", "fanout")
	ckExpect(t, code, out, 1, "FAIL fanout: 1 of 1 partitions fail (outbox-0 expired: 18 records 12..29 deleted before the group read them)")
	if code := run([]string{"check", "--demo", "--group", "ship-svc"}, io.Discard, io.Discard); code != 0 {
		t.Errorf("check --demo --group ship-svc: exit %d, want 0", code)
	}
}

// TestCheckSampleTimeToLoss: with --sample, a group whose next records are
// deleted within the risk window at its rate (here: it does not move) fails
// with the time-to-loss reason and its sentence.
func TestCheckSampleTimeToLoss(t *testing.T) {
	var out, errb bytes.Buffer
	code := checkMain([]string{"--demo", "--group", "audit-export", "--sample", "1s", "--interval", "500ms", "-o", "json"}, &out, &errb)
	if code != exitFailure {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r check.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range r.Partitions {
		for _, reason := range p.Reasons {
			if reason.Code == check.CodeTimeToLoss {
				found = true
				if p.Partition != 0 && p.Partition != 1 || !strings.Contains(reason.Message, "retention deletes its next record in") {
					t.Errorf("%s-%d: %s", p.Topic, p.Partition, reason.Message)
				}
			}
		}
		if p.Time == nil {
			t.Errorf("%s-%d: no time axis", p.Topic, p.Partition)
		}
	}
	if !found {
		t.Errorf("no %s reason: %s", check.CodeTimeToLoss, out.String())
	}
}
