package main

// The version matrix (docs/testing.md "The version matrix"): on every Kafka line CI runs —
// 4.4.0, 4.0.0, 3.9.1, 3.7.2 and 2.8.2 with ZooKeeper — offsettui against that version's own
// kafka-consumer-groups as the oracle: describe rows, every reset strategy's targets,
// --execute read back, delete-offsets, delete-group, check, backup --all-groups and restore,
// serve's series and the TUI's first screen.

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// kafkaLineOf is the docs/kafka.md line a Kafka version belongs to.
func kafkaLineOf(version string) string {
	var major, minor int
	fmt.Sscanf(version, "%d.%d", &major, &minor)
	switch {
	case major == 2:
		return model.KafkaLine28
	case major == 3 && minor <= 7:
		return model.KafkaLine30
	case major == 3:
		return model.KafkaLine38
	case major == 4 && minor == 0:
		return model.KafkaLine40
	case major == 4 && minor <= 3:
		return model.KafkaLine41
	}
	return model.KafkaLine44
}

// TestRealMatrixOracle: every check of the version matrix on each version, each compared with
// that version's kafka-consumer-groups. It logs, per version, how many values it compared.
func TestRealMatrixOracle(t *testing.T) {
	realkafka.EachMatrixVersion(t, func(t *testing.T, b realkafka.Broker) {
		s := b.Seed(t)
		topic := realkafka.Name("mx")
		s.CreateTopic(topic, 3, nil)
		t0 := time.Now().Add(-2 * time.Hour).Truncate(time.Second)
		stamps := func(n int) []time.Time { return realkafka.Spaced(t0, time.Minute, n) }
		s.Produce(topic, 0, stamps(10)...) // [0,10)
		s.Produce(topic, 1, stamps(6)...)  // [0,6)
		s.Produce(topic, 2, stamps(8)...)  // [0,8), no commit
		before := map[model.TP]int64{tpOf(topic, 0): 5, tpOf(topic, 1): 3}
		conn := []string{"--bootstrap-server", b.Addr, "--timeout", "20s"}
		compared := 0

		t.Run("describe", func(t *testing.T) {
			g, live := realkafka.Name("mx-desc"), realkafka.Name("mx-live")
			s.Commit(g, before)
			s.Commit(live, map[model.TP]int64{tpOf(topic, 0): 9, tpOf(topic, 1): 6, tpOf(topic, 2): 1})
			realkafka.ClassicMember(t, b.Addr, live, "mx-member", topic)
			var rows []map[string]string
			realkafka.WaitUntil(t, 60*time.Second, "the live group Stable with its member in Kafka's --describe", func() (bool, string) {
				rows = realkafka.TableRows(b.DescribeOutput(t, g, live), "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG")
				n := 0
				for _, r := range rows {
					if r["GROUP"] == live && r["CLIENT-ID"] == "mx-member" {
						n++
					}
				}
				return n == 3, fmt.Sprintf("%d of 3 partitions of %s assigned: %v", n, live, rows)
			})
			code, snap, errOut := describeJSON(t, append(conn, "--group", g, "--group", live)...)
			if code != exitOK {
				t.Fatalf("describe: exit %d\n%s", code, errOut)
			}
			if v := snap.Cluster.KafkaVersion; v == nil || *v != kafkaLineOf(b.Version) {
				t.Errorf("kafkaVersion %v, want %s", v, kafkaLineOf(b.Version))
			}
			for _, r := range rows {
				grp := findJSONGroup(t, snap, r["GROUP"])
				p, _ := strconv.ParseInt(r["PARTITION"], 10, 32)
				gp := findJSONPartition(grp, r["TOPIC"], int32(p))
				if gp == nil {
					t.Errorf("%s %s-%s: Kafka shows it, offsettui does not", r["GROUP"], r["TOPIC"], r["PARTITION"])
					continue
				}
				for _, f := range []struct {
					col string
					got *int64
				}{{"CURRENT-OFFSET", gp.Committed}, {"LOG-END-OFFSET", gp.High}, {"LAG", gp.Lag}} {
					compared++
					if want := r[f.col]; want == "-" && f.got != nil || want != "-" && (f.got == nil || strconv.FormatInt(*f.got, 10) != want) {
						t.Errorf("%s %s-%d %s: offsettui %v, Kafka %s", r["GROUP"], r["TOPIC"], p, f.col, valOf(f.got), want)
					}
				}
				compared++
				if member := r["CLIENT-ID"]; member != "-" && (gp.Member == nil || gp.Member.ClientID != member) {
					t.Errorf("%s %s-%d member: offsettui %+v, Kafka %s", r["GROUP"], r["TOPIC"], p, gp.Member, member)
				}
			}
			if st := findJSONGroup(t, snap, live).State; st != "Stable" {
				t.Errorf("%s: state %s, want Stable", live, st)
			}
		})

		t.Run("reset strategies", func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "offsets.csv")
			if err := os.WriteFile(file, []byte(fmt.Sprintf("%[1]s,0,100\n%[1]s,2,3\n", topic)), 0o600); err != nil {
				t.Fatal(err)
			}
			g := realkafka.Name("mx-reset")
			s.Commit(g, before)
			for _, flags := range [][]string{
				{"--to-earliest", "--topic", topic},
				{"--to-latest", "--all-topics"},
				{"--to-current", "--topic", topic},
				{"--to-offset", "4", "--topic", topic},
				{"--shift-by", "-2", "--all-topics"},
				{"--shift-by", "20", "--topic", topic + ":0,1"},
				{"--to-datetime", t0.Add(150 * time.Second).UTC().Format("2006-01-02T15:04:05.000"), "--topic", topic},
				{"--by-duration", "PT1H", "--topic", topic},
				{"--from-file", file},
			} {
				_, dry := cliReset(t, append(append(append([]string{}, conn...), "--group", g), flags...)...)
				theirs := b.ResetDryRun(t, flags, g)[g]
				compared += len(theirs)
				if !maps.Equal(dry.targets(), theirs) {
					t.Errorf("%s: offsettui's targets %v, Kafka's %v (blockers %+v)", strings.Join(flags, " "), dry.targets(), theirs, dry.Blockers)
				}
			}
			args := append(append([]string{}, conn...), "--group", g, "--backup-dir", t.TempDir(), "--to-offset", "2", "--topic", topic)
			code, done := cliReset(t, append(args, "--execute")...)
			want := map[model.TP]int64{tpOf(topic, 0): 2, tpOf(topic, 1): 2, tpOf(topic, 2): 2}
			if code != exitOK || done.Verified == nil || !*done.Verified || !maps.Equal(done.targets(), want) {
				t.Fatalf("--execute: exit %d verified %v targets %v blockers %+v", code, done.Verified, done.targets(), done.Blockers)
			}
			compared += len(want)
			if got := b.Describe(t, g)[g]; !maps.Equal(got, want) {
				t.Errorf("after --execute Kafka shows %v, want %v", got, want)
			}
		})

		t.Run("delete-offsets and delete-group", func(t *testing.T) {
			g, twin := realkafka.Name("mx-do"), realkafka.Name("mx-do-twin")
			s.Commit(g, before)
			s.Commit(twin, before)
			code, done := cliDeleteOffsets(t, append(conn, "--backup-dir", t.TempDir(), "--group", g, "--topic", topic+":0", "--execute")...)
			if code != exitOK || done.Verified == nil || !*done.Verified {
				t.Fatalf("delete-offsets: exit %d verified %v blockers %+v", code, done.Verified, done.Blockers)
			}
			b.Tool(t, b.GroupCommand(t), "--bootstrap-server", b.Addr, "--delete-offsets", "--group", twin, "--topic", topic+":0", "--timeout", realkafka.ToolTimeout)
			ours, theirs := b.Describe(t, g)[g], b.Describe(t, twin)[twin]
			compared += len(theirs)
			if !maps.Equal(ours, theirs) || len(ours) != 1 {
				t.Errorf("offsettui left %v, Kafka's tool left %v on the twin; want the same 1", ours, theirs)
			}
			code, gone := cliDeleteGroup(t, append(conn, "--backup-dir", t.TempDir(), "--group", g, "--execute")...)
			if code != exitOK || gone.Verified == nil || !*gone.Verified {
				t.Fatalf("delete-group: exit %d verified %v blockers %+v", code, gone.Verified, gone.Blockers)
			}
			b.Tool(t, b.GroupCommand(t), "--bootstrap-server", b.Addr, "--delete", "--group", twin, "--timeout", realkafka.ToolTimeout)
			list := strings.Fields(b.Tool(t, b.GroupCommand(t), "--bootstrap-server", b.Addr, "--list", "--timeout", realkafka.ToolTimeout))
			compared += 2
			for _, grp := range []string{g, twin} {
				if containsString(list, grp) {
					t.Errorf("%s is still listed by Kafka's --list after its delete", grp)
				}
			}
		})

		t.Run("check", func(t *testing.T) {
			// ok is caught up everywhere (Kafka's LAG 0); expired committed 1 on a partition whose
			// log now starts at 4.
			ok, expired := realkafka.Name("mx-ok"), realkafka.Name("mx-expired")
			s.Commit(ok, map[model.TP]int64{tpOf(topic, 0): 10, tpOf(topic, 1): 6, tpOf(topic, 2): 8})
			gone := realkafka.Name("mx-gone")
			s.CreateTopic(gone, 1, nil)
			s.Produce(gone, 0, stamps(6)...)
			if err := s.DeleteRecords(gone, 0, 4); err != nil {
				t.Fatal(err)
			}
			s.Commit(expired, map[model.TP]int64{tpOf(gone, 0): 1})
			rows := realkafka.TableRows(b.DescribeOutput(t, ok, expired), "GROUP", "TOPIC", "PARTITION", "LAG")
			compared += len(rows)
			for _, r := range rows {
				if lag := r["LAG"]; r["GROUP"] == ok && lag != "0" || r["GROUP"] == expired && lag != "5" {
					t.Errorf("Kafka's --describe: %v; want LAG 0 for %s and 5 for %s", r, ok, expired)
				}
			}
			for _, c := range []struct {
				group string
				code  int
			}{{ok, exitOK}, {expired, 1}} {
				var out, errb bytes.Buffer
				if code := checkMain(append(conn, "--group", c.group), &out, &errb); code != c.code {
					t.Errorf("check %s: exit %d, want %d\n%s%s", c.group, code, c.code, out.String(), errb.String())
				}
			}
		})

		t.Run("backup and restore", func(t *testing.T) {
			g := realkafka.Name("mx-bk")
			s.Commit(g, before)
			dir := t.TempDir()
			var out, errb bytes.Buffer
			if code := backupMain(append(conn, "--all-groups", "--dir", dir), &out, &errb); code != exitOK {
				t.Fatalf("backup --all-groups: exit %d\n%s%s", code, out.String(), errb.String())
			}
			m := regexp.MustCompile(`(?m)^saved\s+` + regexp.QuoteMeta(g) + `: \d+ positions in (\S+)$`).FindStringSubmatch(out.String())
			if m == nil {
				t.Fatalf("no backup line for %s:\n%s", g, out.String())
			}
			s.Commit(g, map[model.TP]int64{tpOf(topic, 0): 0, tpOf(topic, 1): 0})
			code, r := cliReset(t, append(conn, "--backup-dir", t.TempDir(), "--group", g, "--restore", m[1], "--execute")...)
			if code != exitOK || r.Verified == nil || !*r.Verified {
				t.Fatalf("restore: exit %d blockers %+v", code, r.Blockers)
			}
			got := b.Describe(t, g)[g]
			compared += len(got)
			if !maps.Equal(got, before) {
				t.Errorf("after the restore Kafka shows %v, want the backup's %v", got, before)
			}
		})

		t.Run("serve", func(t *testing.T) {
			g := realkafka.Name("mx-serve")
			s.Commit(g, before)
			lag := int64(0)
			for _, r := range realkafka.TableRows(b.DescribeOutput(t, g), "GROUP", "TOPIC", "PARTITION", "LAG") {
				if n, err := strconv.ParseInt(r["LAG"], 10, 64); err == nil {
					lag += n
				}
			}
			compared++
			sv := startServe(t, "--bootstrap-server", b.Addr, "--interval", "2s", "--timeout", "20s")
			want := fmt.Sprintf(`offsettui_group_lag{cluster="%s",group="%s",type="classic"} %d`, b.Addr, g, lag)
			line := fmt.Sprintf(`offsettui_kafka_version_info{cluster="%s",kafka_version="%s"} 1`, b.Addr, kafkaLineOf(b.Version))
			sv.waitFor(t, 60*time.Second, want+" and "+line, func() bool {
				ms := sv.metrics(t)
				return containsString(ms, want) && containsString(ms, line)
			})
		})

		t.Run("tui first screen", func(t *testing.T) {
			g := realkafka.Name("mx-tui")
			s.Commit(g, before)
			tm, _, waitFor := realTUI(t, b.Addr)
			waitFor("Kafka " + kafkaLineOf(b.Version))
			tm.Type("/" + g)
			// The groups list's row: the group, its type and state, and its lag (Kafka's
			// --describe: 2 + 3 on the partitions with a commit).
			compared++
			waitFor("Groups 1 of", g, "classic", "Empty", "5")
			// enter leaves the filter's input (the only match opens), so q quits.
			tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
			waitFor("groups › " + g)
			finalView(t, tm)
		})
		t.Logf("Kafka %s (%s): compared %d values with kafka-consumer-groups (%s)", b.Version, kafkaLineOf(b.Version), compared, b.GroupCommand(t))
	})
}

func findJSONGroup(t *testing.T, s model.Snapshot, name string) model.Group {
	t.Helper()
	for _, g := range s.Groups {
		if g.Group == name {
			return g
		}
	}
	t.Fatalf("group %s is not in the snapshot", name)
	return model.Group{}
}

func findJSONPartition(g model.Group, topic string, p int32) *model.GroupPartition {
	for i := range g.Partitions {
		if g.Partitions[i].Topic == topic && g.Partitions[i].Partition == p {
			return &g.Partitions[i]
		}
	}
	return nil
}

func valOf(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
