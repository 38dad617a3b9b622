package main

// What a one-shot command reads of __consumer_offsets (docs/kafka.md "The commit log"), on
// the broker of its own whose partition holds tens of MB of a busy group's commits
// (realkafka.SeedCommitLogWorld): the bytes of the Fetch answers are counted as offsettui's
// client receives them, by a fault proxy in front of the broker. The time each costs is the
// benchmark's (scripts/bench-commitlog.sh), not a test's.

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// commitLogRecentBytes is issue 31's bound: a group that committed recently costs at most
// this many bytes of Fetch answers more than --commit-log off; commitLogOldFetches the
// Fetch requests of one that committed before every busy commit.
const (
	commitLogRecentBytes = 2_000_000
	commitLogOldFetches  = 10
)

// TestRealKafkaCommitLogBounded: check and describe of one group whose partition of
// __consumer_offsets holds the busy group's 40 MB (OFFSETTUI_COMMITLOG_WORLD_MB) read of it
// only what the answer needs. A group that committed after them (consumed and left):
// at most 2,000,000 bytes of Fetch answers more than --commit-log off. One that committed
// before them: the same commitsExpireAt per partition as an independent read of the whole
// partition gives (franz-go's consumer, realkafka.GroupRecords), in at most 10 Fetch
// requests. A Stable group whose member subscribes to every committed topic: no request
// names __consumer_offsets at all, and its clock says not-needed.
func TestRealKafkaCommitLogBounded(t *testing.T) {
	t.Parallel() // its seeding takes a minute on a loaded broker: beside the package's other tests
	b := realkafka.CommitLogBroker(t)
	mb := 40
	if v, err := strconv.Atoi(os.Getenv("OFFSETTUI_COMMITLOG_WORLD_MB")); err == nil && v > 0 {
		mb = v
	}
	w := realkafka.SeedCommitLogWorld(t, b.Addr, mb)
	t.Logf("partition %d of __consumer_offsets holds %d bytes: %d commits of %s after %s's, then %s's",
		w.Partition, w.PartitionBytes, w.BusyCommits, w.Busy, w.Old, w.Recent)
	stable := stableGroup(t, b.Addr, w.Topic)
	retention, _ := realkafka.OffsetsRetention(t, realkafka.NewSeed(t, b.Addr))
	p, id := proxied(t, b.Addr)
	p.Record(kmsg.Fetch)
	p.Record(kmsg.ListOffsets)
	for _, c := range []struct {
		name, group string
	}{{"recent", w.Recent}, {"old", w.Old}, {"stable", stable}} {
		for _, cmd := range []string{"check", "describe"} {
			t.Run(c.name+"/"+cmd, func(t *testing.T) {
				off := readThrough(t, p, id, cmd, c.group, "off")
				on := readThrough(t, p, id, cmd, c.group, "auto")
				t.Logf("%s --group %s (%s): --commit-log auto: %d Fetch requests (%d of %s), %d bytes of Fetch answers in %v; off: %d requests, %d bytes in %v",
					cmd, c.group, c.name, on.fetches, on.offsetsFetches, realkafka.OffsetsTopic, on.fetchBytes, on.took.Round(time.Millisecond),
					off.fetches, off.fetchBytes, off.took.Round(time.Millisecond))
				if off.offsetsFetches+off.offsetsLists != 0 {
					t.Errorf("--commit-log off asked %s: %d Fetch, %d ListOffsets", realkafka.OffsetsTopic, off.offsetsFetches, off.offsetsLists)
				}
				switch c.name {
				case "recent":
					if more := on.fetchBytes - off.fetchBytes; more > commitLogRecentBytes {
						t.Errorf("%d bytes of Fetch answers more than --commit-log off; the bound is %d", more, commitLogRecentBytes)
					}
				case "old":
					if on.offsetsFetches > commitLogOldFetches {
						t.Errorf("%d Fetch requests of %s; the bound is %d", on.offsetsFetches, realkafka.OffsetsTopic, commitLogOldFetches)
					}
				case "stable":
					if on.offsetsFetches+on.offsetsLists != 0 {
						t.Errorf("a Stable group subscribed to every committed topic asked %s: %d Fetch, %d ListOffsets", realkafka.OffsetsTopic, on.offsetsFetches, on.offsetsLists)
					}
					if on.clog != model.CommitLogNotNeeded {
						t.Errorf("its commitsExpiry.commitLog is %q, want %q", on.clog, model.CommitLogNotNeeded)
					}
					return
				}
				if on.clog != model.CommitLogRead {
					t.Errorf("commitsExpiry.commitLog %q, want read", on.clog)
				}
				want := oracleExpiry(t, b.Addr, c.group, retention)
				if len(on.expireAt) != len(want) || len(want) == 0 {
					t.Errorf("commitsExpireAt of %d partitions %v; the oracle has %d: %v", len(on.expireAt), on.expireAt, len(want), want)
				}
				for tp, at := range want {
					if got, ok := on.expireAt[tp]; !ok || !got.Equal(at) {
						t.Errorf("%s: commitsExpireAt %v, the oracle says %v (Empty time + offsets.retention.minutes)", tp, got, at)
					}
				}
			})
		}
	}
}

// commitLogRun is what one command read through the proxy, and what it said.
type commitLogRun struct {
	fetches, offsetsFetches, offsetsLists int
	fetchBytes                            int64
	took                                  time.Duration
	clog                                  string // commitsExpiry.commitLog
	expireAt                              map[model.TP]time.Time
}

// readThrough runs `offsettui CMD --group group --commit-log mode -o json` through the proxy
// and counts its Fetch requests and the bytes of their answers.
func readThrough(t *testing.T, p *faultproxy.Proxy, id int32, cmd, group, mode string) commitLogRun {
	t.Helper()
	p.ResetCounts()
	fetchesBefore, listsBefore := recorded(t, p, kmsg.Fetch), recorded(t, p, kmsg.ListOffsets)
	args := []string{"--bootstrap-server", p.Addrs()[0], "--group", group, "--commit-log", mode, "--timeout", "20s"}
	var r commitLogRun
	start := time.Now()
	switch cmd {
	case "check":
		code, res := checkJSON(t, p.Addrs()[0], args[2:]...)
		if code != exitOK {
			t.Fatalf("check --group %s --commit-log %s: exit %d: %s %+v", group, mode, code, res.Summary, res.Problems)
		}
		r.took = time.Since(start)
		if res.CommitsExpiry != nil {
			r.clog = res.CommitsExpiry.CommitLog
		}
		r.expireAt = map[model.TP]time.Time{}
		for _, cp := range res.Partitions {
			if cp.CommitsExpireAt != nil {
				r.expireAt[cp.TP()] = cp.CommitsExpireAt.Time
			}
		}
	case "describe":
		code, snap, stderr := describeJSON(t, args...)
		if code != exitOK {
			t.Fatalf("describe --group %s --commit-log %s: exit %d: %s", group, mode, code, stderr)
		}
		r.took = time.Since(start)
		g := groupOf(t, snap, group)
		if g.CommitsExpiry != nil {
			r.clog = g.CommitsExpiry.CommitLog
		}
		r.expireAt = map[model.TP]time.Time{}
		for _, gp := range g.Partitions {
			if gp.CommitsExpireAt != nil {
				r.expireAt[gp.TP()] = gp.CommitsExpireAt.Time
			}
		}
	}
	r.fetches, r.fetchBytes = p.Requests(id, kmsg.Fetch), p.AnswerBytes(id, kmsg.Fetch)
	for _, req := range recorded(t, p, kmsg.Fetch)[len(fetchesBefore):] {
		for _, topic := range req.(*kmsg.FetchRequest).Topics {
			if topic.Topic == realkafka.OffsetsTopic {
				r.offsetsFetches++
				break
			}
		}
	}
	for _, req := range recorded(t, p, kmsg.ListOffsets)[len(listsBefore):] {
		for _, topic := range req.(*kmsg.ListOffsetsRequest).Topics {
			if topic.Topic == realkafka.OffsetsTopic {
				r.offsetsLists++
			}
		}
	}
	return r
}

// recorded is every request of key the proxy recorded.
func recorded(t *testing.T, p *faultproxy.Proxy, key kmsg.Key) []kmsg.Request {
	t.Helper()
	reqs, err := p.Recorded(key)
	if err != nil {
		t.Fatal(err)
	}
	return reqs
}

// stableGroup is a live classic group (franz-go) whose one member subscribes to topic and
// committed every partition of it: Stable, every committed topic subscribed.
func stableGroup(t *testing.T, addr, topic string) string {
	t.Helper()
	group := realkafka.Name("clog-stable")
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.AutoCommitInterval(time.Second), kgo.FetchMaxWait(200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			cl.PollFetches(ctx)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		cl.Close()
	})
	adm := kadm.NewClient(cl)
	realkafka.WaitUntil(t, 60*time.Second, "the Stable group's commits", func() (bool, string) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		dg, err := adm.DescribeGroups(ctx, group)
		if err != nil {
			return false, err.Error()
		}
		offs, err := adm.FetchOffsets(ctx, group)
		if err != nil {
			return false, err.Error()
		}
		state := dg[group].State
		return state == "Stable" && len(offs[topic]) > 0, fmt.Sprintf("state %s, commits on %d partitions", state, len(offs[topic]))
	})
	return group
}

// oracleExpiry is when the broker may delete each commit of an Empty classic group, from an
// independent read of its whole partition of __consumer_offsets: its last GroupMetadata
// record's state time (the time it became Empty) plus the retention.
func oracleExpiry(t *testing.T, addr, group string, retention time.Duration) map[model.TP]time.Time {
	t.Helper()
	recs, scan, err := realkafka.GroupRecords(realkafka.Ctx(t, 2*time.Minute), []string{addr}, group)
	if err != nil {
		t.Fatal(err)
	}
	var emptyAt time.Time
	commits := map[model.TP]bool{}
	for _, r := range recs {
		switch {
		case r.Classic != nil && len(r.Classic.Members) == 0:
			emptyAt = time.UnixMilli(r.Classic.CurrentStateTimestamp)
		case r.Classic != nil:
			emptyAt = time.Time{}
		case r.Commit != nil:
			commits[model.TP{Topic: r.Topic, Partition: r.Partition}] = true
		case r.Tombstone && r.Type <= realkafka.RecordOffsetCommit:
			delete(commits, model.TP{Topic: r.Topic, Partition: r.Partition})
		}
	}
	if emptyAt.IsZero() {
		t.Fatalf("the oracle found no Empty record of %s in %d records of partition %d", group, scan.Records, scan.Partition)
	}
	out := map[model.TP]time.Time{}
	for tp := range commits {
		out[tp] = emptyAt.Add(retention)
	}
	return out
}
