package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// encodingJSON is the document as encoding/json writes it: DescribeJSON must
// write exactly this.
func encodingJSON(t testing.TB, s model.Snapshot) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func checkDescribeJSON(t testing.TB, s model.Snapshot) {
	t.Helper()
	var got bytes.Buffer
	if err := DescribeJSON(&got, s); err != nil {
		t.Fatal(err)
	}
	if want := encodingJSON(t, s); !bytes.Equal(got.Bytes(), want) {
		at := 0
		for at < min(got.Len(), len(want)) && got.Bytes()[at] == want[at] {
			at++
		}
		from := max(0, at-120)
		t.Fatalf("DescribeJSON differs from encoding/json at byte %d:\n got …%s…\nwant …%s…", at,
			got.Bytes()[from:min(got.Len(), at+120)], want[from:min(len(want), at+120)])
	}
}

func TestDescribeJSONIsEncodingJSON(t *testing.T) {
	nilGroups := snapshot()
	nilGroups.Groups = nil
	nilParts := snapshot()
	nilParts.Groups[0].Partitions = nil
	for name, s := range map[string]model.Snapshot{
		"fixture":          snapshot(),
		"empty":            {},
		"nil groups":       nilGroups,
		"nil partitions":   nilParts,
		"random, seed 1":   randomSnapshot(rand.New(rand.NewPCG(1, 1)), 40),
		"random, seed 2":   randomSnapshot(rand.New(rand.NewPCG(2, 2)), 40),
		"random, seed 3":   randomSnapshot(rand.New(rand.NewPCG(3, 3)), 40),
		"odd names, 1":     oddNames(snapshot(), `a"b\c<d>&e`, "tab\there\u2028\x01", "ü-topic\xff"),
		"odd names, 2":     oddNames(snapshot(), `"partitions":null`, `{"partitions":null}`, ""),
		"assignment null":  assignmentNull(snapshot()),
		"partition errors": partitionErrors(snapshot()),
	} {
		t.Run(name, func(t *testing.T) { checkDescribeJSON(t, s) })
	}
}

// FuzzDescribeJSONStrings: any group, topic, member or error text is written
// as encoding/json writes it.
func FuzzDescribeJSONStrings(f *testing.F) {
	f.Add("g", "t", "m", "c", "h", "msg")
	f.Add(`"partitions":null`, "t\n", "\u2028", "<&>", `\`, "\xff")
	f.Fuzz(func(t *testing.T, group, topic, member, client, host, msg string) {
		s := oddNames(snapshot(), group, topic, member)
		s.Groups[0].Partitions[0].Member = &model.MemberRef{MemberID: member, ClientID: client, Host: host}
		s.Groups[0].Partitions[0].Error = &model.Error{Kind: model.KindBroker, Message: msg, Topic: &topic}
		checkDescribeJSON(t, s)
	})
}

// oddNames renames the first group, every topic of its rows and its members.
func oddNames(s model.Snapshot, group, topic, member string) model.Snapshot {
	g := &s.Groups[0]
	g.Group = group
	g.Partitions = append([]model.GroupPartition(nil), g.Partitions...)
	for i := range g.Partitions {
		g.Partitions[i].Topic = topic
	}
	g.Members = []model.Member{{MemberRef: model.MemberRef{MemberID: member, ClientID: member, Host: member},
		Assignments: []model.Assignment{{Topic: topic, Partitions: []int32{0}}}}}
	return s
}

// assignmentNull gives a member an assignment whose partitions are nil
// (written "partitions":null inside the group's members).
func assignmentNull(s model.Snapshot) model.Snapshot {
	s.Groups[0].Members = []model.Member{{Assignments: []model.Assignment{{Topic: "x"}}}}
	return s
}

func partitionErrors(s model.Snapshot) model.Snapshot {
	code := "NOT_LEADER_OR_FOLLOWER"
	for gi := range s.Groups {
		for pi := range s.Groups[gi].Partitions {
			p := &s.Groups[gi].Partitions[pi]
			p.Error = (&model.Error{Kind: model.KindBroker, Code: &code, Message: "list offsets"}).WithPartition(p.TP())
		}
	}
	s.Groups[0].Error = (&model.Error{Kind: model.KindDenied, Message: "denied"}).WithGroup(s.Groups[0].Group)
	return s
}

// randomSnapshot is n groups whose every optional field is sometimes null.
func randomSnapshot(r *rand.Rand, n int) model.Snapshot {
	num := func() *int64 {
		if r.IntN(4) == 0 {
			return nil
		}
		return model.Ptr(r.Int64N(1<<40) - 1<<20)
	}
	s := model.Snapshot{Cluster: model.Cluster{Bootstrap: "k:9092", Brokers: 3, TakenAt: model.Stamp{Time: time.UnixMilli(r.Int64N(1 << 42))}},
		Groups: []model.Group{}, Topics: []model.Topic{}, Errors: []model.Error{}}
	for gi := range n {
		g := model.Group{Group: fmt.Sprintf("g-%d", gi), Type: "classic", State: "Stable", Members: []model.Member{},
			TotalLag: num(), TotalLagAtLeast: num(), WorstStatus: model.Status(r.IntN(6)), Counts: model.Counts{},
			OffsetsExpireAfterMs: num(), Partitions: []model.GroupPartition{}, LosingNow: r.IntN(2) == 0}
		if r.IntN(2) == 0 { // rates of every magnitude: encoding/json switches to an exponent below 1e-6 and from 1e21
			g.LostRatePerSec = model.Some((r.Float64() - 0.3) * math.Pow(10, float64(r.IntN(40)-15)))
		}
		for pi := range r.IntN(6) {
			p := model.GroupPartition{Topic: fmt.Sprintf("topic.%d", r.IntN(3)), Partition: int32(pi), Low: num(), High: num(),
				LastStable: num(), Committed: num(), Lag: num(), Status: model.Status(r.IntN(6)), TimeLagMs: num(), ExpiresInMs: num()}.With(
				model.PartitionDetail{StartOffset: num(), Lost: num(), Beyond: num()})
			if r.IntN(2) == 0 {
				p.SetCommittedTimestamp(model.StampOf(time.UnixMilli(r.Int64N(1 << 42)).In(time.FixedZone("x", 3600))))
			}
			if r.IntN(3) == 0 {
				p.Member = &model.MemberRef{MemberID: "m", ClientID: strings.Repeat("c", r.IntN(3)), Host: "/10.0.0.1"}
			}
			if r.IntN(3) > 0 {
				p.Subscribed = model.Ptr(r.IntN(2) == 0)
			}
			if r.IntN(3) == 0 {
				p.SetTransactionMarkers(&model.TransactionMarkers{ControlRecords: r.Int64N(9), AbortedRecords: r.Int64N(9), KafkaLag: r.Int64N(20)})
			} else if r.IntN(4) == 0 {
				p.SetMarkersUnknown(model.Ptr(`read_committed Fetch from broker 1: "moved"`))
			}
			if r.IntN(3) == 0 {
				p.Time = &model.PartitionTime{ETAMs: model.Some(r.Int64N(1 << 30)), Evaluation: model.Evaluation(r.IntN(3))}
			}
			if r.IntN(3) == 0 {
				p.SetChange(&model.PartitionChange{New: r.IntN(2) == 0, LagBy: model.Some(r.Int64N(100) - 50)})
			}
			g.Counts[p.Status]++
			g.Partitions = append(g.Partitions, p)
		}
		if r.IntN(4) == 0 {
			g.Members = nil // not described: null
			g.Topology = &model.Topology{Epoch: 3, Subtopologies: []model.Subtopology{{ID: "0", SourceTopics: []string{"in"}}}}
		}
		switch r.IntN(3) {
		case 0:
			g.UnsubscribedTopics = []string{"topic.1", "t\u00fcpic"}
		case 1:
			g.UnsubscribedTopics = []string{}
		}
		randomGroupHead(r, &g)
		if r.IntN(3) == 0 {
			g.Time = &model.GroupTime{Samples: r.IntN(9), WindowMs: r.Int64N(1 << 20)}
		}
		if r.IntN(3) == 0 {
			g.Change = &model.GroupChange{GonePartitions: []model.PartitionRef{{Topic: "gone", Partition: 1}}}
		}
		s.Groups = append(s.Groups, g)
	}
	if r.IntN(2) == 0 {
		s.Window = &model.Window{Samples: 3, From: s.Cluster.TakenAt, To: s.Cluster.TakenAt}
		s.Baseline = &model.BaselineInfo{File: "b.json", GoneGroups: []string{"old"}}
	}
	return s
}

// randomGroupHead sets each of a group's own fields sometimes, from the common to the rare.
func randomGroupHead(r *rand.Rand, g *model.Group) {
	stamp := func() *model.Stamp {
		if r.IntN(2) == 0 {
			return nil
		}
		return model.StampOf(time.UnixMilli(r.Int64N(1 << 42)))
	}
	g.Coordinator = r.Int32N(5) - 1
	g.Protocol = []string{"", "range", "cooperative-sticky"}[r.IntN(3)]
	if r.IntN(5) == 0 {
		g.Counts = nil
	}
	if r.IntN(3) == 0 && g.Members != nil {
		g.Members = []model.Member{{MemberRef: model.MemberRef{MemberID: "m-1", ClientID: "c", Host: "/h"},
			Assignments: []model.Assignment{{Topic: "topic.0", Partitions: []int32{0, 2}}}}}
	}
	g.CommitsExpireAt = stamp()
	if r.IntN(3) == 0 {
		g.CommitsExpiry = &model.CommitExpiry{Rule: model.ExpiryCommitTime, EmptySince: stamp(), Latest: stamp(),
			UnknownTime: []model.ExpiryRule{model.ExpiryNone, model.ExpiryEmptyTime}[r.IntN(2)], Expiring: r.IntN(3), RetentionMs: r.Int64N(1 << 40),
			RetentionAssumed: r.IntN(2) == 0, CommitLog: "failed"}
		if r.IntN(2) == 0 {
			g.CommitsExpiry.ExpiringInMs, g.CommitsExpiry.CheckIntervalMs = model.Ptr(r.Int64N(1<<30)), model.Ptr(int64(600_000))
			g.CommitsExpiry.CommitLogReason = model.Ptr("metadata: \"__consumer_offsets\" not visible\u2028")
		}
	}
	if r.IntN(3) == 0 {
		g.ShareAutoOffsetReset = model.Ptr([]string{"latest", "earliest", "by_duration:PT1H"}[r.IntN(3)])
	}
	if r.IntN(3) == 0 {
		g.Committer = &model.Committer{Seen: []string{"commit-log"}, Commits: r.IntN(9), First: *stamp0(r), Last: *stamp0(r)}
	}
	if r.IntN(4) == 0 {
		g.Error = (&model.Error{Kind: model.KindBroker, Message: "coordinator \"moved\""}).WithGroup(g.Group)
	}
}

func stamp0(r *rand.Rand) *model.Stamp { return model.StampOf(time.UnixMilli(r.Int64N(1 << 42))) }

type failWriter struct{ n int }

func (f *failWriter) Write(b []byte) (int, error) {
	if f.n -= len(b); f.n < 0 {
		return 0, errors.New("disk full")
	}
	return len(b), nil
}

// A failed write is reported, not swallowed.
func TestDescribeJSONWriteError(t *testing.T) {
	s := randomSnapshot(rand.New(rand.NewPCG(4, 4)), 2000)
	if err := DescribeJSON(&failWriter{n: 100 << 10}, s); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got %v, want the writer's error", err)
	}
}
