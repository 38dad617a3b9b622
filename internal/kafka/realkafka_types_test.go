package kafka_test

// Share and streams groups against a real Apache Kafka broker, with Kafka's own
// kafka-share-groups.sh (ShareGroupCommand) and kafka-streams-groups.sh
// (StreamsGroupCommand) as the oracles: a live and an Empty group of each type, field by
// field. They skip, naming the Kafka version, where the broker has no such groups.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
)

// toolRows runs a group tool and returns the rows of its table with cols.
func toolRows(t *testing.T, main string, args []string, cols ...string) []map[string]string {
	t.Helper()
	return realkafka.TableRows(realkafka.Tool(t, main, args...), cols...)
}

// shareConfig reads a group config with Kafka's ConfigCommand ("" when it is not shown).
func groupConfig(t *testing.T, addr, group, name string) string {
	t.Helper()
	out := realkafka.Tool(t, realkafka.ConfigCommand(t), "--bootstrap-server", addr,
		"--describe", "--entity-type", "groups", "--entity-name", group, "--all")
	m := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(name) + `=(\S*)`).FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	return m[1]
}

// compareShare compares offsettui's view of share group g with ShareGroupCommand's
// --describe (offsets), --describe --state and --describe --members, and its
// share.auto.offset.reset with ConfigCommand's.
func compareShare(t *testing.T, tally *realkafka.Tally, addr string, c *kafka.Client, g string) {
	t.Helper()
	base := []string{"--bootstrap-server", addr, "--describe", "--group", g}
	offsets := toolRows(t, realkafka.ShareGroupCommand, append(base, "--verbose"), "GROUP", "TOPIC", "PARTITION", "START-OFFSET", "LAG")
	state := toolRows(t, realkafka.ShareGroupCommand, append(base, "--state"), "GROUP", "STATE", "#MEMBERS")
	members := toolRows(t, realkafka.ShareGroupCommand, append(base, "--members"), "GROUP", "CONSUMER-ID", "HOST", "CLIENT-ID", "#PARTITIONS", "ASSIGNMENT")
	reset := groupConfig(t, addr, g, "share.auto.offset.reset")
	grp := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{g}}), g)

	tally.Eq(g+" type", grp.Type, model.TypeShare)
	if len(state) != 1 {
		t.Fatalf("%s: ShareGroupCommand --state rows %v, want one", g, state)
	}
	tally.Eq(g+" state", grp.State, state[0]["STATE"])
	tally.Eq(g+" #members", fmt.Sprint(len(grp.Members)), state[0]["#MEMBERS"])
	tally.Eq(g+" coordinator", fmt.Sprintf("(%d)", grp.Coordinator), state[0]["(ID)"])
	tally.Eq(g+" share.auto.offset.reset", deref(grp.ShareAutoOffsetReset), reset)
	for _, row := range offsets {
		p := findPartition(t, grp, row["TOPIC"], int32(atoi(t, row["PARTITION"])))
		tp := fmt.Sprintf("%s %s-%s", g, row["TOPIC"], row["PARTITION"])
		tally.Eq(tp+" START-OFFSET", text.Num(p.StartOffset()), row["START-OFFSET"])
		tally.Eq(tp+" LAG", text.Num(p.Lag), row["LAG"])
	}
	for _, row := range members {
		i := slices.IndexFunc(grp.Members, func(m model.Member) bool { return m.MemberID == row["CONSUMER-ID"] })
		if i < 0 {
			t.Errorf("%s: member %s of ShareGroupCommand is not in offsettui's %+v", g, row["CONSUMER-ID"], grp.Members)
			continue
		}
		m := grp.Members[i]
		tally.Eq(g+" member host", m.Host, row["HOST"])
		tally.Eq(g+" member client id", m.ClientID, row["CLIENT-ID"])
		tally.Eq(g+" member #partitions", fmt.Sprint(countPartitions(m)), row["#PARTITIONS"])
		tally.Eq(g+" member assignment", shareAssignment(m), row["ASSIGNMENT"])
	}
	tally.Eq(g+" members listed", fmt.Sprint(len(grp.Members)), fmt.Sprint(len(members)))
}

// shareAssignment renders a member's assignment as kafka-share-groups --members does:
// "t:0,1;u:2", topics sorted.
func shareAssignment(m model.Member) string {
	var parts []string
	for _, a := range m.Assignments {
		ps := make([]string, len(a.Partitions))
		for i, p := range a.Partitions {
			ps[i] = fmt.Sprint(p)
		}
		parts = append(parts, a.Topic+":"+strings.Join(ps, ","))
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

func countPartitions(m model.Member) int {
	n := 0
	for _, a := range m.Assignments {
		n += len(a.Partitions)
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	var n int64
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// TestRealKafkaShareDescribeParity: a live share group (Kafka's ConsoleShareConsumer, with
// share.auto.offset.reset=earliest set on the group) and, after it stops, the same group
// Empty; and an Empty share group made with AlterShareGroupOffsets, one start offset below
// the log start (expired) and one partition without a start offset. offsettui agrees with
// kafka-share-groups.sh field by field: type, state, members, coordinator, each member's
// host, client id and assignment, each partition's start offset and lag, and the group's
// share.auto.offset.reset with kafka-configs.
func TestRealKafkaShareDescribeParity(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, addr)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("share")
	s.CreateTopic(topic, 3, nil)
	now := func(int) time.Time { return time.Now() }
	s.ProduceN(topic, 0, 10, now)
	s.ProduceN(topic, 1, 4, now) // partition 2 stays empty
	gLive, gEmpty := realkafka.Name("share-live"), realkafka.Name("share-empty")
	s.SetGroupConfig(gLive, "share.auto.offset.reset", "earliest")
	// Kafka 4.1 advertises AlterShareGroupOffsets but writes nothing: no such Empty group there.
	withEmpty := realkafka.AtLeast(4, 2)
	if withEmpty {
		s.ShareStartOffsets(gEmpty, map[model.TP]int64{tpOf(topic, 0): 3, tpOf(topic, 1): 4})
	} else {
		t.Logf("Kafka %s cannot set share-group start offsets (AlterShareGroupOffsets does nothing before 4.2): only the live group, then Empty, is compared", realkafka.Version())
	}
	if err := s.DeleteRecords(topic, 0, 5); err != nil {
		t.Fatalf("delete records: %v", err)
	}
	stop := realkafka.ShareConsumer(t, addr, gLive, topic)
	c := realClient(t, addr)
	tally := realkafka.NewTally(t, "share describe parity")

	realkafka.WaitUntil(t, 90*time.Second, "live share member assigned every partition", func() (bool, string) {
		return stableWith(realSnapshot(t, c, model.Query{Groups: []string{gLive}}), gLive, topic, []int32{0, 1, 2})
	})
	s.ProduceN(topic, 1, 2, now) // delivered to the live member while it runs
	// Wait until the member has acknowledged every record, so that the tool and offsettui
	// read the same state: the broker's lag is 0 on partitions 0 and 1 (the start offsets are
	// persisted lazily, so their end is not known; empty partition 2 keeps none). Kafka 4.1
	// gives no lag: there, until the start offsets hold still.
	if realkafka.AtLeast(4, 2) {
		s.WaitShareAcknowledged(gLive, tpOf(topic, 0), tpOf(topic, 1))
	} else {
		realkafka.WaitStill(t, gLive+" start offsets", func() string {
			g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{gLive}}), gLive)
			var b strings.Builder
			for _, p := range g.Partitions {
				fmt.Fprintf(&b, "%s-%d:%s ", p.Topic, p.Partition, text.Num(p.StartOffset()))
			}
			return b.String()
		})
	}
	compareShare(t, tally, addr, c, gLive)

	stop()
	realkafka.WaitUntil(t, 60*time.Second, "the share group Empty after its member left", func() (bool, string) {
		g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{gLive}}), gLive)
		return g.State == "Empty", "state " + g.State
	})
	compareShare(t, tally, addr, c, gLive)
	if !withEmpty {
		return
	}
	compareShare(t, tally, addr, c, gEmpty)

	// What offsettui adds: statuses, and that share-group start offsets never expire.
	g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{gEmpty}}), gEmpty)
	if p := findPartition(t, g, topic, 0); p.Status != model.StatusExpired || val(p.Lost()) != int64(2) {
		t.Errorf("%s %s-0: status %s lost %s, want expired lost 2 (start 3 below the log start 5)", gEmpty, topic, p.Status, text.Num(p.Lost()))
	}
	if g.OffsetsExpireAfterMs != nil || g.Members == nil || len(g.Members) != 0 {
		t.Errorf("%s: offsetsExpireAfterMs %s members %v; want null (share offsets do not expire) and []", gEmpty, text.Num(g.OffsetsExpireAfterMs), g.Members)
	}
}

// streamsMembers parses kafka-streams-groups --describe --members: GROUP MEMBER PROCESS
// CLIENT-ID, then ASSIGNMENTS, which has spaces ("ACTIVE: 0:[0,1]; ").
func streamsMembers(t *testing.T, addr, g string) []map[string]string {
	t.Helper()
	out := realkafka.Tool(t, realkafka.StreamsGroupCommand, "--bootstrap-server", addr, "--describe", "--group", g, "--members")
	var rows []map[string]string
	header := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 5 && f[0] == "GROUP" && f[1] == "MEMBER":
			header = true
		case header && len(f) >= 4 && f[0] == g:
			rows = append(rows, map[string]string{"MEMBER": f[1], "PROCESS": f[2], "CLIENT-ID": f[3], "ASSIGNMENTS": strings.Join(f[4:], " ")})
		}
	}
	return rows
}

// compareStreams compares offsettui's view of streams group g with StreamsGroupCommand's
// --describe --verbose (offsets of the partitions members run), --describe --state
// --verbose and --describe --members; and its committed offsets with the tool's
// --reset-offsets --to-current --dry-run (the committed offsets of the input topics, the
// only table the tool prints for an Empty group).
func compareStreams(t *testing.T, tally *realkafka.Tally, addr string, c *kafka.Client, g string) {
	t.Helper()
	base := []string{"--bootstrap-server", addr, "--describe", "--group", g}
	offsets := toolRows(t, realkafka.StreamsGroupCommand, append(base, "--verbose"), "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "OFFSET-LAG")
	state := toolRows(t, realkafka.StreamsGroupCommand, append(base, "--state", "--verbose"), "GROUP", "STATE", "#MEMBERS")
	members := streamsMembers(t, addr, g)
	current := toolRows(t, realkafka.StreamsGroupCommand, []string{"--bootstrap-server", addr, "--reset-offsets", "--group", g,
		"--all-input-topics", "--to-current", "--dry-run"}, "GROUP", "TOPIC", "PARTITION", "NEW-OFFSET")
	grp := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{g}}), g)

	tally.Eq(g+" type", grp.Type, model.TypeStreams)
	if len(state) != 1 {
		t.Fatalf("%s: StreamsGroupCommand --state rows %v, want one", g, state)
	}
	tally.Eq(g+" state", grp.State, state[0]["STATE"])
	tally.Eq(g+" #members", fmt.Sprint(len(grp.Members)), state[0]["#MEMBERS"])
	tally.Eq(g+" coordinator", fmt.Sprintf("(%d)", grp.Coordinator), state[0]["(ID)"])
	if a, ok := state[0]["ASSIGNOR"]; ok { // Kafka 4.4 shows it
		tally.Eq(g+" assignor", grp.Protocol, a)
	}
	for _, row := range offsets {
		p := findPartition(t, grp, row["TOPIC"], int32(atoi(t, row["PARTITION"])))
		tp := fmt.Sprintf("%s %s-%s", g, row["TOPIC"], row["PARTITION"])
		tally.Eq(tp+" CURRENT-OFFSET", text.Num(p.Committed), row["CURRENT-OFFSET"])
		tally.Eq(tp+" LOG-END-OFFSET", text.Num(p.High), row["LOG-END-OFFSET"])
		if p.Committed != nil { // without a commit Kafka's tool prints high − low, offsettui null (docs/kafka.md)
			tally.Eq(tp+" OFFSET-LAG", text.Num(p.Lag), row["OFFSET-LAG"])
		}
		tally.Eq(tp+" member", fmt.Sprint(p.Member != nil), "true")
	}
	for _, row := range current {
		p := findPartition(t, grp, row["TOPIC"], int32(atoi(t, row["PARTITION"])))
		tally.Eq(fmt.Sprintf("%s %s-%s committed", g, row["TOPIC"], row["PARTITION"]), text.Num(p.Committed), row["NEW-OFFSET"])
	}
	for _, row := range members {
		i := slices.IndexFunc(grp.Members, func(m model.Member) bool { return m.MemberID == row["MEMBER"] })
		if i < 0 {
			t.Errorf("%s: member %s of StreamsGroupCommand is not in offsettui's %+v", g, row["MEMBER"], grp.Members)
			continue
		}
		m := grp.Members[i]
		tally.Eq(g+" member process", deref(m.ProcessID), row["PROCESS"])
		tally.Eq(g+" member client id", m.ClientID, row["CLIENT-ID"])
		tally.Eq(g+" member tasks", display.TasksText(m.Tasks), strings.TrimSpace(row["ASSIGNMENTS"]))
	}
	tally.Eq(g+" members listed", fmt.Sprint(len(grp.Members)), fmt.Sprint(len(members)))
}

// TestRealKafkaStreamsDescribeParity: a running Kafka Streams application (the tiny app of
// test/kafka/StreamsApp.java, group.protocol=streams) and, after it stops, the same group
// Empty. offsettui agrees with kafka-streams-groups.sh field by field: type, state,
// members, coordinator, assignor, each member's process, client id and tasks, and each
// partition's committed offset, log-end offset and lag.
func TestRealKafkaStreamsDescribeParity(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedStreamsGroups(t, addr)
	s := realkafka.NewSeed(t, addr)
	in, out, app := realkafka.Name("streams-in"), realkafka.Name("streams-out"), realkafka.Name("streams-app")
	s.CreateTopic(in, 3, nil)
	s.CreateTopic(out, 3, nil)
	now := func(int) time.Time { return time.Now() }
	s.ProduceN(in, 0, 7, now)
	s.ProduceN(in, 1, 3, now) // partition 2 stays empty: assigned, never committed
	stop := realkafka.StreamsApp(t, addr, app, in, out)
	c := realClient(t, addr)
	tally := realkafka.NewTally(t, "streams describe parity")

	realkafka.WaitUntil(t, 120*time.Second, "the streams app running every task and committed", func() (bool, string) {
		g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{app}}), app)
		if ok, why := stableWith(model.Snapshot{Groups: []model.Group{g}}, app, in, []int32{0, 1, 2}); !ok {
			return false, why
		}
		p0, p1 := findPartition(t, g, in, 0), findPartition(t, g, in, 1)
		return val(p0.Committed) == int64(7) && val(p1.Committed) == int64(3),
			fmt.Sprintf("committed %s, %s", text.Num(p0.Committed), text.Num(p1.Committed))
	})
	compareStreams(t, tally, addr, c, app)
	g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{app}}), app)
	if g.Topology == nil || !slices.Equal(g.Topology.SourceTopics(), []string{in}) {
		t.Errorf("%s: topology %+v, want one subtopology reading %s", app, g.Topology, in)
	}

	stop()
	realkafka.WaitUntil(t, 60*time.Second, "the streams group Empty after the app stopped", func() (bool, string) {
		g := findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{app}}), app)
		return g.State == "Empty", "state " + g.State
	})
	compareStreams(t, tally, addr, c, app)
	g = findGroup(t, realSnapshot(t, c, model.Query{Groups: []string{app}}), app)
	if g.OffsetsExpireAfterMs == nil || g.Topology == nil {
		t.Errorf("%s Empty: offsetsExpireAfterMs %s topology %v; want set (commits expire) and kept", app, text.Num(g.OffsetsExpireAfterMs), g.Topology)
	}
}

// TestRealKafkaConsumerProtocolGroupsTogether: two live consumer-protocol groups described
// in one ConsumerGroupDescribe (as a snapshot of every group does). Kafka 4.0 answers it
// with each group twice, once GROUP_ID_NOT_FOUND: offsettui keeps the data entry, so each
// group shows its member and assignor as kafka-consumer-groups --describe --state does.
func TestRealKafkaConsumerProtocolGroupsTogether(t *testing.T) {
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	topic := realkafka.Name("kip848")
	s.CreateTopic(topic, 2, nil)
	g1, g2 := realkafka.Name("kip848-a"), realkafka.Name("kip848-b")
	realkafka.ConsoleConsumer(t, addr, g1, realkafka.Name("client-a"), topic)
	realkafka.ConsoleConsumer(t, addr, g2, realkafka.Name("client-b"), topic)
	c := realClient(t, addr)
	tally := realkafka.NewTally(t, "consumer-protocol groups described together")
	realkafka.WaitUntil(t, 60*time.Second, "both groups Stable with one member", func() (bool, string) {
		snap := realSnapshot(t, c, model.Query{})
		for _, g := range []string{g1, g2} {
			if ok, why := stableWith(snap, g, topic, []int32{0, 1}); !ok {
				return false, why
			}
		}
		return true, ""
	})
	state := realkafka.TableRows(realkafka.DescribeOutput(t, addr, []string{"--state"}, g1, g2), "GROUP", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS")
	snap := realSnapshot(t, c, model.Query{}) // every group: one ConsumerGroupDescribe for both
	for _, row := range state {
		g := findGroup(t, snap, row["GROUP"])
		tally.Eq(g.Group+" state", g.State, row["STATE"])
		tally.Eq(g.Group+" #members", fmt.Sprint(len(g.Members)), row["#MEMBERS"])
		tally.Eq(g.Group+" assignor", g.Protocol, row["ASSIGNMENT-STRATEGY"])
		tally.Eq(g.Group+" error", fmt.Sprint(g.Error), "<nil>")
	}
	if len(state) != 2 {
		t.Errorf("kafka-consumer-groups --state rows %v, want two", state)
	}
}

// TestRealKafkaShareGroupOverEveryListener: the requests sarama lacks (ShareGroupDescribe,
// DescribeShareGroupOffsets) authenticate exactly as sarama does: a snapshot of a share
// group through the SASL_SSL (SCRAM-SHA-512, JKS truststore), mTLS (PKCS12 keystore) and
// OAUTHBEARER (OIDC client credentials) listeners shows the same group as on PLAINTEXT,
// with no error; on the SASL_PLAINTEXT listener with alice's ACLs (none), the share
// requests fail as denied, on the group, not as a crash or an empty group.
func TestRealKafkaShareGroupOverEveryListener(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, addr)
	if !realkafka.AtLeast(4, 2) {
		t.Skipf("Kafka %s cannot make an Empty share group (AlterShareGroupOffsets does nothing before 4.2): skipped", realkafka.Version())
	}
	s := realkafka.NewSeed(t, addr)
	topic, group := realkafka.Name("share-auth"), realkafka.Name("share-auth")
	s.CreateTopic(topic, 1, nil)
	s.ProduceN(topic, 0, 5, func(int) time.Time { return time.Now() })
	s.ShareStartOffsets(group, map[model.TP]int64{tpOf(topic, 0): 2})
	pass := realkafka.Env(t, "OFFSETTUI_IT_STORE_PASSWORD")
	var issued atomic.Int32
	key := realkafka.OAuthKey(t)
	for _, l := range []struct {
		name, addr string
		props      map[string]string
	}{
		{"PLAINTEXT", addr, nil},
		{"SASL_SSL SCRAM-SHA-512", realkafka.Env(t, "OFFSETTUI_IT_SASL_SSL_BOOTSTRAP"), kv("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
			"sasl.jaas.config", scramModule+` required username="admin" password="admin-secret";`,
			"ssl.truststore.type", "JKS", "ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_TRUSTSTORE_JKS"), "ssl.truststore.password", pass)},
		{"SSL with a client certificate", realkafka.Env(t, "OFFSETTUI_IT_SSL_BOOTSTRAP"), kv("security.protocol", "SSL",
			"ssl.truststore.location", realkafka.Env(t, "OFFSETTUI_IT_TRUSTSTORE_PKCS12"), "ssl.truststore.password", pass,
			"ssl.keystore.type", "PKCS12", "ssl.keystore.location", realkafka.Env(t, "OFFSETTUI_IT_KEYSTORE_PKCS12"),
			"ssl.keystore.password", pass, "ssl.key.password", pass)},
		{"SASL_PLAINTEXT OAUTHBEARER", realkafka.Env(t, "OFFSETTUI_IT_OAUTH_BOOTSTRAP"), realkafka.OAuthProperties(realkafka.OIDCEndpoint(t, key, time.Hour, &issued), "oidc-secret")},
	} {
		t.Run(l.name, func(t *testing.T) {
			cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{l.addr}, Client: withProps(t, l.props), Timeout: 10 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			g := findGroup(t, realSnapshot(t, cl, model.Query{Groups: []string{group}}), group)
			p := findPartition(t, g, topic, 0)
			if g.Type != model.TypeShare || g.Error != nil || g.Members == nil || val(p.StartOffset()) != int64(2) || g.ShareAutoOffsetReset == nil {
				t.Errorf("over %s: type %s error %v members %v start %s reset %v; want the share group as on PLAINTEXT",
					l.name, g.Type, g.Error, g.Members, text.Num(p.StartOffset()), g.ShareAutoOffsetReset)
			}
		})
	}
	t.Run("SASL_PLAINTEXT as a principal without ACLs", func(t *testing.T) {
		cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: []string{realkafka.Env(t, "OFFSETTUI_IT_SASL_BOOTSTRAP")}, Timeout: 10 * time.Second,
			Client: withProps(t, kv("security.protocol", "SASL_PLAINTEXT", "sasl.mechanism", "SCRAM-SHA-256",
				"sasl.jaas.config", scramModule+` required username="alice" password="alice-secret";`))})
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Close()
		snap, err := cl.Snapshot(realkafka.Ctx(t, 30*time.Second), model.Query{Groups: []string{group}})
		if err != nil {
			t.Fatalf("snapshot: %v", err)
		}
		g := findGroup(t, snap, group)
		if g.Error == nil || g.Members != nil {
			t.Errorf("alice without ACLs: group %+v; want an error and members unknown", g)
		}
		t.Logf("as alice: type %s, error %v", g.Type, g.Error)
	})
}
