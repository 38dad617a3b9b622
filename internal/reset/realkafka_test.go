package reset_test

// Reset tests against a real Apache Kafka broker (scripts/kafka.sh), with Kafka's
// own ConsumerGroupCommand as the oracle. They run when OFFSETTUI_IT_BOOTSTRAP is
// set and skip otherwise; OFFSETTUI_REQUIRE_KAFKA=1 turns the skip into a failure.
// The CLI side (--execute, --restore, exit codes) is in
// cmd/offsettui/realkafka_reset_test.go.

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// realService is a reset service on the real broker, backups in a temp dir.
func realService(t *testing.T, addr string) *reset.Service {
	t.Helper()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: strings.Split(addr, ","), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return &reset.Service{Cluster: c, ClusterName: func() string { return addr }, BackupDir: t.TempDir(), User: "it"}
}

func tpOf(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

// every returns n timestamps step apart from start.
func every(start time.Time, step time.Duration, n int) []time.Time {
	out := make([]time.Time, n)
	for i := range out {
		out[i] = start.Add(time.Duration(i) * step)
	}
	return out
}

// kafkaDatetime formats t as kafka-consumer-groups' --to-datetime wants it
// (yyyy-MM-ddTHH:mm:ss.SSS, no zone = UTC).
func kafkaDatetime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000") }

// parityCase is one ConsumerGroupCommand --reset-offsets --dry-run call (several
// groups at once) and the offsettui plans it must agree with.
type parityCase struct {
	name   string
	kind   plan.StrategyKind
	value  string   // the strategy's value as typed ("" for the switches)
	scope  []string // Kafka's scope flags: --all-topics, or --topic values
	groups []string
}

func (c parityCase) kafkaFlags() []string {
	flags := []string{c.kind.Flag()}
	if c.kind.TakesValue() {
		flags = append(flags, c.value)
	}
	return append(flags, c.scope...)
}

func (c parityCase) offsettuiScope(t *testing.T) plan.Scope {
	t.Helper()
	var topics []string
	all := false
	for i := 0; i < len(c.scope); i++ {
		switch c.scope[i] {
		case "--all-topics":
			all = true
		case "--topic":
			i++
			topics = append(topics, c.scope[i])
		}
	}
	s, err := plan.NewScope(all, topics, c.kind)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (c parityCase) strategy(t *testing.T) plan.Strategy {
	t.Helper()
	if c.kind.FromFileKind() {
		f, err := os.Open(c.value)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		st, err := plan.FileStrategy(c.kind, c.value, f)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st, err := plan.ParseStrategy(c.kind, c.value, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRealKafkaResetParity: for every strategy (clamping at both ends included)
// and every scope, the targets offsettui plans (Service.Plan) are the NEW-OFFSET
// rows of ConsumerGroupCommand --reset-offsets --dry-run, and both have the same
// rows. The groups cover full commits, an expired commit (committed < low), a
// commit above high, partial commits, and a group that does not exist; the
// partitions a moved log start (DeleteRecords), an emptied one (low = high > 0),
// and records whose timestamps are known.
func TestRealKafkaResetParity(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	a, b := realkafka.Name("parity-a"), realkafka.Name("parity-b")
	s.CreateTopic(a, 3, nil)
	s.CreateTopic(b, 2, nil)
	now := time.Now().Truncate(time.Second)
	t0 := now.Add(-3 * time.Hour)
	// Offsets [low,high) and record timestamps per partition:
	s.Produce(a, 0, every(t0, time.Minute, 10)...)                      // a-0 [0,10): t0 + i min
	s.Produce(a, 1, every(now.Add(-time.Hour), time.Minute, 3)...)      // a-1 [0,3): an hour ago
	s.Produce(a, 2, every(t0, time.Minute, 12)...)                      // a-2 [6,12) after DeleteRecords
	s.Produce(b, 0, every(now.Add(-4*time.Hour), 30*time.Minute, 8)...) // b-0 [0,8): now − (8−i)·30 min
	s.Produce(b, 1, every(t0, time.Minute, 5)...)                       // b-1 [5,5): every record deleted
	for _, d := range []struct {
		topic string
		p     int32
		at    int64
	}{{a, 2, 6}, {b, 1, 5}} {
		if err := s.DeleteRecords(d.topic, d.p, d.at); err != nil {
			t.Fatalf("delete records of %s-%d before %d: %v", d.topic, d.p, d.at, err)
		}
	}
	// DeleteRecords below the log start is a no-op that succeeds on Kafka (kfake
	// rejects it with OFFSET_OUT_OF_RANGE).
	if err := s.DeleteRecords(a, 2, 3); err != nil {
		t.Errorf("DeleteRecords below the log start: %v, want Kafka's silent no-op", err)
	}

	g1, g2, g3, g4 := realkafka.Name("full"), realkafka.Name("partial"), realkafka.Name("one"), realkafka.Name("none")
	s.Commit(g1, map[model.TP]int64{tpOf(a, 0): 5, tpOf(a, 1): 1, tpOf(a, 2): 8, tpOf(b, 0): 2, tpOf(b, 1): 5})
	s.Commit(g2, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 7, tpOf(a, 2): 3}) // a-1 above high, a-2 expired
	s.Commit(g3, map[model.TP]int64{tpOf(b, 0): 4})
	// g4 never commits: the group does not exist.

	dir := t.TempDir()
	multi := filepath.Join(dir, "multi.csv") // Kafka's form for several groups
	writeFile(t, multi, fmt.Sprintf("%[3]s,%[1]s,0,3\n%[3]s,%[1]s,1,100\n%[3]s,%[1]s,2,1\n%[3]s,%[2]s,1,2\n"+
		"%[4]s,%[1]s,0,7\n%[4]s,%[2]s,0,9\n%[5]s,%[1]s,1,2\n", a, b, g1, g2, g4))
	single := filepath.Join(dir, "single.csv") // topic,partition,offset
	writeFile(t, single, fmt.Sprintf("%[2]s,0,6\n%[1]s,2,20\n%[1]s,0,0\n", a, b))

	all := []string{"--all-topics"}
	whole := []string{"--topic", a}
	some := []string{"--topic", a + ":0,2", "--topic", b}
	groups := []string{g1, g2, g3, g4}
	var cases []parityCase
	for _, sc := range []struct {
		name  string
		flags []string
	}{{"all-topics", all}, {"topic", whole}, {"topic-partitions", some}} {
		for _, st := range []struct {
			kind         plan.StrategyKind
			label, value string
		}{
			{plan.ToEarliest, "", ""}, {plan.ToLatest, "", ""}, {plan.ToCurrent, "", ""},
			{plan.ToOffset, "4", "4"},
			{plan.ToDatetime, "between-records", kafkaDatetime(t0.Add(270 * time.Second))},
			{plan.ByDuration, "PT100M", "PT100M"},
		} {
			name := string(st.kind)
			if st.label != "" {
				name += "=" + st.label
			}
			cases = append(cases, parityCase{name: name + "/" + sc.name,
				kind: st.kind, value: st.value, scope: sc.flags, groups: groups})
		}
	}
	// shift-by needs a commit on every partition in scope (else Kafka fails).
	cases = append(cases,
		parityCase{name: "shift-by=-3/all-topics", kind: plan.ShiftBy, value: "-3", scope: all, groups: groups},
		parityCase{name: "shift-by=-3/topic", kind: plan.ShiftBy, value: "-3", scope: whole, groups: []string{g1, g2}},
		parityCase{name: "shift-by=-3/topic-partitions", kind: plan.ShiftBy, value: "-3", scope: some, groups: []string{g1}},
		parityCase{name: "shift-by=2/all-topics", kind: plan.ShiftBy, value: "2", scope: all, groups: groups},
		parityCase{name: "shift-by=-1000/all-topics", kind: plan.ShiftBy, value: "-1000", scope: all, groups: groups},
		parityCase{name: "shift-by=1000/all-topics", kind: plan.ShiftBy, value: "1000", scope: all, groups: groups},
		parityCase{name: "to-offset=0/all-topics", kind: plan.ToOffset, value: "0", scope: all, groups: groups},
		parityCase{name: "to-offset=1000/all-topics", kind: plan.ToOffset, value: "1000", scope: all, groups: groups},
		parityCase{name: "to-offset=-1/all-topics", kind: plan.ToOffset, value: "-1", scope: all, groups: groups},
		parityCase{name: "to-datetime=after-every-record/topic-partitions", kind: plan.ToDatetime, value: kafkaDatetime(now.Add(time.Hour)), scope: some, groups: groups},
		parityCase{name: "to-datetime=before-every-record/all-topics", kind: plan.ToDatetime, value: kafkaDatetime(t0.Add(-time.Hour)), scope: all, groups: groups},
		parityCase{name: "to-datetime=with-zone/all-topics", kind: plan.ToDatetime,
			value: t0.Add(270 * time.Second).In(time.FixedZone("", 2*3600)).Format("2006-01-02T15:04:05.000-07:00"), scope: all, groups: groups},
		parityCase{name: "from-file=with-groups", kind: plan.FromFile, value: multi, scope: nil, groups: []string{g1, g2, g4}},
		parityCase{name: "from-file=single-group", kind: plan.FromFile, value: single, scope: nil, groups: []string{g3}},
	)

	svc := realService(t, addr)
	var (
		mu      sync.Mutex
		total   int
		reasons = map[plan.Reason]int{}
	)
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				t.Parallel()
				want := realkafka.ResetDryRun(t, addr, c.kafkaFlags(), c.groups...)
				n := 0
				for _, g := range c.groups {
					p, err := svc.Plan(context.Background(), g, c.offsettuiScope(t), c.strategy(t))
					if err != nil {
						t.Fatalf("%s: plan: %v", g, err)
					}
					got := map[model.TP]int64{}
					for _, r := range p.Rows {
						if r.Target == nil {
							t.Errorf("%s %s: no target (reason %q); blockers %+v", g, r.TP(), r.Reason, p.Blockers)
							continue
						}
						got[r.TP()] = *r.Target
						mu.Lock()
						reasons[r.Reason]++
						mu.Unlock()
					}
					checkBlockers(t, g, p, len(want[g]) == 0, g == g4)
					n += compareTargets(t, g, got, want[g])
				}
				mu.Lock()
				total += n
				mu.Unlock()
				t.Logf("%s: %d rows equal", c.kafkaFlags(), n)
			})
		}
	})
	if t.Failed() {
		return
	}
	// The matrix must have exercised every way a target is chosen.
	for _, r := range []plan.Reason{plan.ReasonAsRequested, plan.ReasonClampedToLow, plan.ReasonClampedToHigh,
		plan.ReasonNoRecordAfterTime, plan.ReasonNoCommitToLatest} {
		if reasons[r] == 0 {
			t.Errorf("no row with reason %s: the cases do not cover it", r)
		}
	}
	if total < 200 {
		t.Errorf("compared %d rows; the matrix should give more than 200", total)
	}
	t.Logf("compared %d rows in %d ConsumerGroupCommand calls (reasons %v)", total, len(cases), reasons)
}

// checkBlockers: a plan has no blockers, except "nothing to reset" when the scope
// selects no partition (Kafka's CLI then prints no row).
// A group that does not exist (gone) is planned exactly as Kafka's tool plans
// it, and blocked: the write would create it (docs/resets.md), which Kafka's
// tool does without a word.
func checkBlockers(t *testing.T, g string, p plan.Plan, empty, gone bool) {
	t.Helper()
	var want []plan.BlockerKind
	if gone {
		want = append(want, plan.BlockGroupNotFound)
	}
	if (empty && len(p.Rows) == 0) || unchanged(p.Rows) {
		want = append(want, plan.BlockNothingToReset) // docs/resets.md: a plan that changes nothing is blocked
	}
	var got []plan.BlockerKind
	for _, b := range p.Blockers {
		got = append(got, b.Kind)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: blockers %+v, want %v", g, p.Blockers, want)
	}
}

// unchanged says every row's target is its commit: Kafka's tool would write the offsets back
// as they are.
func unchanged(rows []plan.Row) bool {
	for _, r := range rows {
		if r.Committed == nil || r.Target == nil || *r.Committed != *r.Target {
			return false
		}
	}
	return len(rows) > 0
}

// compareTargets reports every row where offsettui and Kafka differ and returns
// the number of rows compared.
func compareTargets(t *testing.T, g string, got, want map[model.TP]int64) int {
	t.Helper()
	keys := slices.SortedFunc(maps.Keys(mergeKeys(got, want)), model.CompareTP)
	for _, tp := range keys {
		o, inO := got[tp]
		k, inK := want[tp]
		switch {
		case !inO:
			t.Errorf("%s %s: Kafka's CLI plans %d, offsettui has no row", g, tp, k)
		case !inK:
			t.Errorf("%s %s: offsettui plans %d, Kafka's CLI has no row", g, tp, o)
		case o != k:
			t.Errorf("%s %s: offsettui plans %d, Kafka's CLI %d", g, tp, o, k)
		}
	}
	return len(keys)
}

func mergeKeys(a, b map[model.TP]int64) map[model.TP]bool {
	out := map[model.TP]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestRealKafkaResetRefusals: where Kafka's CLI refuses a reset, offsettui refuses
// it too — shift-by on a partition without a commit (a blocker naming the
// partition with Kafka's sentence), and a --from-file row with a negative offset
// (Kafka: "Invalid negative offset", the whole file refused; it does not clamp it
// as it clamps --to-offset -1).
func TestRealKafkaResetRefusals(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("refuse"), realkafka.Name("refuse")
	s.CreateTopic(topic, 2, nil)
	s.Produce(topic, 0, every(time.Now(), 0, 4)...)
	s.Produce(topic, 1, every(time.Now(), 0, 4)...)
	s.Commit(group, map[model.TP]int64{tpOf(topic, 0): 2}) // topic-1 has no commit

	out, errOut, code := realkafka.RunTool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", addr,
		"--reset-offsets", "--dry-run", "--group", group, "--shift-by", "1", "--topic", topic)
	sentence := fmt.Sprintf("Cannot shift offset for partition %s since there is no current committed offset", tpOf(topic, 1))
	if !strings.Contains(out+errOut, sentence) || len(realkafka.TableRows(out, "NEW-OFFSET")) != 0 {
		t.Errorf("Kafka's CLI (exit %d) does not say %q or printed rows:\nstdout:\n%s\nstderr:\n%s", code, sentence, out, errOut)
	}
	st, err := plan.ParseStrategy(plan.ShiftBy, "1", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	scope, err := plan.NewScope(false, []string{topic}, plan.ShiftBy)
	if err != nil {
		t.Fatal(err)
	}
	p, err := realService(t, addr).Plan(context.Background(), group, scope, st)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Blockers) != 1 || p.Blockers[0].Kind != plan.BlockNoCommitCannotShift || p.Blockers[0].Message != sentence {
		t.Errorf("offsettui blockers %+v, want one no-commit-cannot-shift: %q", p.Blockers, sentence)
	}
	t.Logf("shift-by without a commit: Kafka's CLI exit %d; offsettui blocker %q", code, p.Blockers[0].Message)

	file := filepath.Join(t.TempDir(), "negative.csv")
	writeFile(t, file, fmt.Sprintf("%[1]s,0,1\n%[1]s,1,-5\n", topic))
	out, errOut, code = realkafka.RunTool(t, realkafka.ConsumerGroupCommand, "--bootstrap-server", addr,
		"--reset-offsets", "--dry-run", "--group", group, "--from-file", file)
	if code == 0 || !strings.Contains(out+errOut, "Invalid negative offset") || len(realkafka.TableRows(out, "NEW-OFFSET")) != 0 {
		t.Errorf("Kafka's CLI on a negative offset in --from-file: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := plan.FileStrategy(plan.FromFile, file, f); err == nil || !strings.Contains(err.Error(), "negative offset -5") {
		t.Errorf("offsettui --from-file with a negative offset: %v, want it refused", err)
	}
	t.Logf("negative offset in --from-file: Kafka's CLI exit %d (Invalid negative offset); offsettui refuses the file", code)
}

// blindCluster is the real cluster with every guard's input faked away: it
// reports the group Empty and without members, so Execute sends its commit.
// Only the broker is left to refuse it.
type blindCluster struct{ *kafka.Client }

func (b blindCluster) ReadPlanInput(ctx context.Context, group string, topics []string, at time.Time) (plan.Input, error) {
	in, err := b.Client.ReadPlanInput(ctx, group, topics, at)
	in.State, in.Members = "Empty", nil
	return in, err
}

// liveGroup is a group with commits and one live member that never commits.
type liveGroup struct {
	name, typ, clientID string
	committed           map[model.TP]int64
}

// TestRealKafkaResetRefusesLiveGroups: a group with a live classic member (franz-go,
// auto commit off) and one with a live consumer-protocol member (Kafka's
// ConsoleConsumer, group.protocol=consumer): offsettui's plan has the
// group-not-empty blocker naming the member (client id and host as Kafka reports
// them), Execute refuses — even when handed the plan with its blockers stripped —
// and nothing is written. A commit that skips every guard (the admin form sent
// directly, and Execute on a cluster that hides the members) is rejected by the
// broker for every partition and reported as nothing written; Kafka's
// ConsumerGroupCommand --describe shows the commits unchanged throughout.
func TestRealKafkaResetRefusesLiveGroups(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("live")
	s.CreateTopic(topic, 2, nil)
	s.Produce(topic, 0, every(time.Now(), 0, 6)...)
	s.Produce(topic, 1, every(time.Now(), 0, 4)...)
	groups := []liveGroup{
		{name: realkafka.Name("live-classic"), typ: "classic", clientID: realkafka.Name("classic-client"), committed: map[model.TP]int64{tpOf(topic, 0): 3, tpOf(topic, 1): 1}},
		{name: realkafka.Name("live-consumer"), typ: "consumer", clientID: realkafka.Name("consumer-client"), committed: map[model.TP]int64{tpOf(topic, 0): 2, tpOf(topic, 1): 2}},
	}
	var names []string
	for _, g := range groups {
		// Committed while empty; the consumer-protocol member then converts the
		// (classic, offsets-only) group to the consumer protocol as it joins.
		s.Commit(g.name, g.committed)
		names = append(names, g.name)
	}
	realkafka.ClassicMember(t, addr, groups[0].name, groups[0].clientID, topic)
	realkafka.ConsoleConsumer(t, addr, groups[1].name, groups[1].clientID, topic)

	svc := realService(t, addr)
	c := svc.Cluster.(*kafka.Client)
	members := map[string]model.Member{}
	realkafka.WaitUntil(t, 60*time.Second, "both groups Stable with their member", func() (bool, string) {
		snap, err := c.Snapshot(realkafka.Ctx(t, 30*time.Second), model.Query{Groups: names})
		if err != nil {
			return false, err.Error()
		}
		for _, want := range groups {
			for _, g := range snap.Groups {
				if g.Group != want.name {
					continue
				}
				if g.State != "Stable" || len(g.Members) != 1 || g.Type != want.typ {
					return false, fmt.Sprintf("%s: %s %s with %d members, want %s Stable with 1", g.Group, g.Type, g.State, len(g.Members), want.typ)
				}
				members[g.Group] = g.Members[0]
			}
		}
		return len(members) == len(groups), fmt.Sprintf("%d of %d groups seen", len(members), len(groups))
	})
	unchanged := func(when string) {
		t.Helper()
		got := realkafka.Describe(t, addr, names...)
		for _, g := range groups {
			if !maps.Equal(got[g.name], g.committed) {
				t.Errorf("%s: %s: ConsumerGroupCommand --describe shows %v, want the commits unchanged %v", when, g.name, got[g.name], g.committed)
			}
		}
	}

	ctx := context.Background()
	scope, err := plan.NewScope(false, []string{topic}, plan.ToEarliest)
	if err != nil {
		t.Fatal(err)
	}
	st, err := plan.ParseStrategy(plan.ToEarliest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	blind := &reset.Service{Cluster: blindCluster{Client: c}, ClusterName: func() string { return addr }, BackupDir: t.TempDir(), User: "it"}
	for _, g := range groups {
		m := members[g.name]
		p, err := svc.Plan(ctx, g.name, scope, st)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Blockers) != 1 || p.Blockers[0].Kind != plan.BlockGroupNotEmpty ||
			!strings.Contains(p.Blockers[0].Message, m.ClientID+" on "+m.Host) || m.ClientID != g.clientID || m.Host == "" {
			t.Errorf("%s: blockers %+v; want group-not-empty naming %s on %s", g.name, p.Blockers, g.clientID, m.Host)
		}
		if res := svc.Execute(ctx, p); res.Outcome != plan.OutcomeRefused || res.Plan.Executed || res.Plan.Backup != nil {
			t.Errorf("%s: Execute: outcome %s executed %v backup %v, want refused before anything", g.name, res.Outcome, res.Plan.Executed, res.Plan.Backup)
		}
		// The plan with its blockers stripped: Execute's own re-read refuses it.
		p.Blockers = nil
		res := svc.Execute(ctx, p)
		if res.Outcome != plan.OutcomeRefused || res.Plan.Executed || res.Plan.Backup != nil ||
			len(res.Plan.Blockers) == 0 || res.Plan.Blockers[0].Kind != plan.BlockGroupNotEmpty {
			t.Errorf("%s: Execute of a stripped plan: outcome %s executed %v blockers %+v, want refused by the re-read", g.name, res.Outcome, res.Plan.Executed, res.Plan.Blockers)
		}
		t.Logf("%s (%s): planned and refused: %s", g.name, g.typ, res.Plan.Blockers[0].Message)

		// Forced: the admin-form commit sent directly.
		targets := map[model.TP]int64{tpOf(topic, 0): 0, tpOf(topic, 1): 0}
		rej, err := c.CommitOffsets(ctx, g.name, targets)
		if err != nil || len(rej) != len(targets) {
			t.Errorf("%s: forced commit: rejected %+v, err %v; want every partition rejected", g.name, rej, err)
		}
		for _, e := range rej {
			if e.Code == nil || *e.Code != "UNKNOWN_MEMBER_ID" || !strings.Contains(e.Message, "the group has live members") {
				t.Errorf("%s: forced commit rejected with %+v, want UNKNOWN_MEMBER_ID saying the group has live members", g.name, e)
				continue
			}
			t.Logf("%s (%s): forced admin commit of %s-%d: %s: %s", g.name, g.typ, *e.Topic, *e.Partition, *e.Code, e.Message)
		}
		// Forced through Execute, every guard's input faked: reported as nothing written.
		fp, err := blind.Plan(ctx, g.name, scope, st)
		if err != nil || !fp.Executable() {
			t.Fatalf("%s: blind plan: %v %+v", g.name, err, fp.Blockers)
		}
		fres := blind.Execute(ctx, fp)
		if fres.Outcome != plan.OutcomeRefused || len(fres.Plan.Rejected) != 2 ||
			fres.Plan.Verified == nil || *fres.Plan.Verified || fres.Plan.Executed ||
			fres.Plan.Undo != nil || fres.Plan.Backup != nil ||
			!slices.Contains(fres.Notes, "nothing written: the broker refused every partition") {
			t.Errorf("%s: forced Execute: outcome %s verified %v rejected %+v notes %q; want refused, nothing written", g.name,
				fres.Outcome, fres.Plan.Verified, fres.Plan.Rejected, fres.Notes)
		}
	}
	unchanged("after the refusals and the forced commits")
}
