package main

// The Kafka command every plan prints (docs/resets.md#the-equivalent-kafka-command), run as
// printed in Kafka's own tools on the real brokers of CI (Kafka 4.4.0 and 4.0.0): a reset's
// dry-run form prints the plan's targets; a delete's command deletes exactly the plan's
// partitions of a throwaway group, with or without --dry-run.

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// printedRun turns a printed command into the run of its tool: sh splits the words (the
// quoting is part of what is tested), the script names the main class, and files the
// operator is told to write are given by path (files: a name in the command → its path).
func printedRun(t *testing.T, cmd string, files map[string]string) realkafka.ToolRun {
	t.Helper()
	out, err := exec.Command("sh", "-c", "set -- "+cmd+"; printf '%s\\0' \"$@\"").Output()
	if err != nil {
		t.Fatalf("sh cannot read the printed command %q: %v", cmd, err)
	}
	words := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	main, ok := realkafka.ToolMains[words[0]]
	if !ok {
		t.Fatalf("the printed command %q runs %q, not a Kafka group tool", cmd, words[0])
	}
	args := words[1:]
	for i := 1; i < len(args); i++ {
		if p, ok := files[args[i]]; ok && (args[i-1] == "--from-file" || args[i-1] == "--command-config") {
			args[i] = p
		}
	}
	return realkafka.ToolRun{Main: main, Args: args}
}

// newOffsets reads the NEW-OFFSET table of a --reset-offsets --dry-run: the last three fields
// of its rows (the group before them may hold spaces; topic names cannot).
func newOffsets(t *testing.T, out string) map[model.TP]int64 {
	t.Helper()
	res := map[model.TP]int64{}
	inTable := false
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 4 && f[len(f)-1] == "NEW-OFFSET":
			inTable = true
		case inTable && len(f) >= 4:
			p, err1 := strconv.ParseInt(f[len(f)-2], 10, 32)
			o, err2 := strconv.ParseInt(f[len(f)-1], 10, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("a row of Kafka's dry run that does not read: %q", line)
			}
			res[tpOf(f[len(f)-3], int32(p))] = o
		}
	}
	return res
}

// printedCheck is one printed command, run in Kafka's tool, and what its run must show.
type printedCheck struct {
	name  string
	run   realkafka.ToolRun
	check func(t *testing.T, res realkafka.ToolResult)
}

// kcWorld is one broker's topic and files for the printed commands.
type kcWorld struct {
	b     realkafka.Broker
	s     *realkafka.Seed
	topic string
	dir   string
	conn  []string // offsettui's connection and backup flags
	csvs  int
}

// dryRunCheck is the printed dry run of a reset plan p: it must exist, be the command with
// --dry-run for --execute, and plan p's targets in Kafka's tool (files: as printedRun; the
// plan's CSV is written where the command names offsets.csv).
func (w *kcWorld) dryRunCheck(t *testing.T, name string, p cliPlan, files map[string]string) printedCheck {
	t.Helper()
	e := p.KafkaEquivalent
	if e == nil || e.DryRunCommand == nil || *e.DryRunCommand != strings.TrimSuffix(e.Command, "--execute")+"--dry-run" {
		t.Fatalf("%s: equivalent %+v, want a command and its dry-run form", name, e)
	}
	if e.CSV != "" {
		w.csvs++
		csv := filepath.Join(w.dir, fmt.Sprintf("printed-%d.csv", w.csvs))
		if err := os.WriteFile(csv, []byte(e.CSV), 0o600); err != nil {
			t.Fatal(err)
		}
		files = map[string]string{plan.EquivalentFile: csv}
	}
	want := p.targets()
	return printedCheck{name, printedRun(t, *e.DryRunCommand, files), func(t *testing.T, res realkafka.ToolResult) {
		if got := newOffsets(t, res.Stdout); res.Exit != 0 || !maps.Equal(got, want) {
			t.Errorf("%s: the printed dry run %q exits %d and plans %v, want the plan's %v\nstdout:\n%s\nstderr:\n%s",
				name, *e.DryRunCommand, res.Exit, got, want, res.Stdout, res.Stderr)
		}
	}}
}

// deleteCheck is the printed command of a delete plan p of a throwaway group (extra added
// to it): it must have no dry-run form, and leave what read() returns at before without
// p's rows.
func deleteCheck(t *testing.T, name string, p deletePlan, extra []string, before map[model.TP]int64, read func() map[model.TP]int64) printedCheck {
	t.Helper()
	e := p.KafkaEquivalent
	if e == nil || e.DryRunCommand != nil || len(p.Rows) == 0 {
		t.Fatalf("%s: equivalent %+v rows %d, want a command without a dry run", name, e, len(p.Rows))
	}
	want := maps.Clone(before)
	for _, r := range p.Rows {
		delete(want, tpOf(r.Topic, r.Partition))
	}
	run := printedRun(t, e.Command, nil)
	run.Args = append(run.Args, extra...)
	return printedCheck{name, run, func(t *testing.T, res realkafka.ToolResult) {
		if got := read(); res.Exit != 0 || !maps.Equal(got, want) {
			t.Errorf("%s: %q %v exits %d and leaves %v, want %v (the plan deletes %d rows)\nstdout:\n%s\nstderr:\n%s",
				name, e.Command, extra, res.Exit, got, want, len(p.Rows), res.Stdout, res.Stderr)
		}
	}}
}

// TestRealKafkaCommandRunsAsPrinted: for every strategy offsettui offers — to-earliest,
// to-latest (--all-topics), to-current (a partition without a commit), to-offset and
// shift-by (clamped), by-duration (Go's form typed) and to-datetime (RFC 3339 with a zone
// typed), from-file, from-group and restore (their CSV written as printed) — the printed
// dry-run command, split by sh and run in Kafka's own tool, prints exactly the plan's
// targets, on a group whose name needs quoting; so do the commands of a plan made through
// the SASL listener with --command-config (the file named) and with a context's inline
// properties (client.properties written from the keys the differences name). The undo line
// of an executed plan names the address its command names. delete-offsets and delete-group's
// commands, run as printed on throwaway groups, delete exactly the plan's partitions, and the
// same with --dry-run added delete all the same (why no dry-run form is printed for them).
// Where the version resets share groups (4.4), kafka-share-groups.sh's printed commands do
// the same for each strategy it has. All of a version's tool runs share one JVM
// (realkafka.RunTools); the versions run in parallel.
func TestRealKafkaCommandRunsAsPrinted(t *testing.T) {
	t.Parallel() // mostly waiting on a JVM: it overlaps the package's other parallel tests
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		w := &kcWorld{b: b, s: b.Seed(t), topic: realkafka.Name("kc"), dir: t.TempDir()}
		w.conn = []string{"--bootstrap-server", b.Addr, "--backup-dir", w.dir}
		a := w.topic
		w.s.CreateTopic(a, 3, nil)
		now := time.Now().Truncate(time.Millisecond)
		// Records every 20 minutes up to 20 minutes ago: a duration or time that falls between
		// two of them picks the same record however long Kafka's tool starts after the plan.
		stamps := realkafka.Spaced(now.Add(-160*time.Minute), 20*time.Minute, 8) // offsets 0..7
		for p := range int32(3) {
			w.s.Produce(a, p, stamps...)
		}
		if err := w.s.DeleteRecords(a, 1, 3); err != nil { // a-1: [3,8)
			t.Fatal(err)
		}
		// RFC 3339 without a fraction, which Kafka's --to-datetime refuses as typed.
		at := now.Add(-130 * time.Minute).In(time.FixedZone("", 3600)).Format(time.RFC3339)
		file := filepath.Join(w.dir, "mine.csv")
		if err := os.WriteFile(file, []byte(fmt.Sprintf("%[1]s,0,6\n%[1]s,2,100\n", a)), 0o600); err != nil {
			t.Fatal(err)
		}

		checks := w.consumerResets(t, at, file)
		checks = append(checks, w.connections(t)...)
		checks = append(checks, w.deletes(t)...)
		if b.AtLeast(4, 4) {
			checks = append(checks, w.shareGroups(t, at, file)...)
		}
		runChecks(t, b, checks)
	})
}

// runChecks runs the checks' commands in one JVM of b's version and checks each run.
func runChecks(t *testing.T, b realkafka.Broker, checks []printedCheck) {
	t.Helper()
	runs := make([]realkafka.ToolRun, len(checks))
	for i, c := range checks {
		// Kafka's default --timeout (5 s) is too short for a JVM's first requests on a
		// loaded machine; it changes no target.
		runs[i] = realkafka.ToolRun{Main: c.run.Main, Args: append(c.run.Args, "--timeout", "60000")}
	}
	start := time.Now()
	results := b.RunTools(t, runs)
	t.Logf("%d runs of Kafka's tools in one JVM: %s", len(runs), time.Since(start).Round(time.Millisecond))
	for i, c := range checks {
		c.check(t, results[i])
	}
}

// consumerResets plans every strategy on a consumer group, each a dry run, and the restore of
// a reset executed on another group, whose undo must name its command's address.
func (w *kcWorld) consumerResets(t *testing.T, at, file string) []printedCheck {
	a, s := w.topic, w.s
	g := realkafka.Name("kc g") + " it's" // quoted in the command
	s.Commit(g, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5})
	source := realkafka.Name("kc-source")
	s.Commit(source, map[model.TP]int64{tpOf(a, 0): 7, tpOf(a, 1): 1, tpOf(a, 2): 4})
	cases := []struct {
		name string
		args []string
		want map[model.TP]int64
	}{
		{"to-earliest", []string{"--to-earliest", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 0, tpOf(a, 1): 3, tpOf(a, 2): 0}},
		{"to-latest", []string{"--to-latest", "--all-topics"}, map[model.TP]int64{tpOf(a, 0): 8, tpOf(a, 1): 8}},
		{"to-current", []string{"--to-current", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5, tpOf(a, 2): 8}},
		{"to-offset", []string{"--to-offset", "1", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 1, tpOf(a, 1): 3, tpOf(a, 2): 1}},
		{"shift-by", []string{"--shift-by", "-3", "--topic", a + ":0,1"}, map[model.TP]int64{tpOf(a, 0): 0, tpOf(a, 1): 3}},
		{"by-duration", []string{"--by-duration", "90m", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 4, tpOf(a, 1): 4, tpOf(a, 2): 4}},
		{"to-datetime", []string{"--to-datetime", at, "--topic", a}, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 3, tpOf(a, 2): 2}},
		{"from-file", []string{"--from-file", file}, map[model.TP]int64{tpOf(a, 0): 6, tpOf(a, 2): 8}},
		{"from-group", []string{"--from-group", source}, map[model.TP]int64{tpOf(a, 0): 7, tpOf(a, 1): 3, tpOf(a, 2): 4}},
	}
	var checks []printedCheck
	for _, c := range cases {
		code, p := cliReset(t, append(append(w.conn, "--group", g), c.args...)...)
		if code != exitOK || !maps.Equal(p.targets(), c.want) {
			t.Fatalf("%s: exit %d targets %v blockers %+v, want 0 and %v", c.name, code, p.targets(), p.Blockers, c.want)
		}
		checks = append(checks, w.dryRunCheck(t, c.name, p, nil))
	}

	r := realkafka.Name("kc-r")
	s.Commit(r, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5})
	code, done := cliReset(t, append(w.conn, "--group", r, "--to-latest", "--topic", a, "--execute", "--observe", "0")...)
	if code != exitOK || done.Backup == nil || done.Undo == nil || done.KafkaEquivalent == nil {
		t.Fatalf("--execute: exit %d backup %v undo %v equivalent %+v", code, done.Backup, done.Undo, done.KafkaEquivalent)
	}
	addrOf := func(cmd string) string {
		_, after, _ := strings.Cut(cmd, "--bootstrap-server ")
		return strings.Fields(after + " -")[0]
	}
	if got, want := addrOf(*done.Undo), addrOf(done.KafkaEquivalent.Command); got != want || want != w.b.Addr {
		t.Errorf("the undo names %s and Kafka's command %s; want both %s\n%s\n%s", got, want, w.b.Addr, *done.Undo, done.KafkaEquivalent.Command)
	}
	code, restore := cliReset(t, append(w.conn, "--group", r, "--restore", *done.Backup)...)
	if want := map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5}; code != exitOK || !maps.Equal(restore.targets(), want) {
		t.Fatalf("restore: exit %d targets %v blockers %+v, want 0 and %v", code, restore.targets(), restore.Blockers, want)
	}
	return append(checks, w.dryRunCheck(t, "restore", restore, nil))
}

// connections plans through the SASL listener: --command-config names the run's file; a
// context's inline properties name client.properties, which the operator writes from the
// keys the differences name (never their values).
func (w *kcWorld) connections(t *testing.T) []printedCheck {
	a, g := w.topic, realkafka.Name("kc-sasl")
	w.s.Commit(g, map[model.TP]int64{tpOf(a, 0): 2})
	props := realkafka.SASLProperties(t, "admin", "admin-secret")
	code, withFile := cliReset(t, "--bootstrap-server", w.b.SASLAddr, "--command-config", props, "--group", g, "--to-latest", "--topic", a)
	if code != exitOK || withFile.KafkaEquivalent == nil || !strings.Contains(withFile.KafkaEquivalent.Command, "--command-config "+props) {
		t.Fatalf("--command-config: exit %d equivalent %+v, want the file named", code, withFile.KafkaEquivalent)
	}
	jaas := `org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="admin-secret";`
	config := filepath.Join(w.dir, "config.yaml")
	yaml := fmt.Sprintf("contexts:\n  - name: kc\n    bootstrap-servers: %s\n    properties:\n      security.protocol: SASL_PLAINTEXT\n"+
		"      sasl.mechanism: SCRAM-SHA-512\n      sasl.jaas.config: %s\n", w.b.SASLAddr, jaas)
	if err := os.WriteFile(config, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	code, inline := cliReset(t, "--config", config, "--context", "kc", "--group", g, "--to-earliest", "--topic", a)
	if code != exitOK || inline.KafkaEquivalent == nil || !strings.Contains(inline.KafkaEquivalent.Command, "--command-config "+plan.ToolPropertiesFile) {
		t.Fatalf("inline properties: exit %d equivalent %+v, want client.properties named", code, inline.KafkaEquivalent)
	}
	differs := strings.Join(inline.KafkaEquivalent.Differs, "\n")
	for _, k := range []string{"security.protocol", "sasl.mechanism", "sasl.jaas.config"} {
		if !strings.Contains(differs, k) {
			t.Errorf("the differences do not name %s for client.properties:\n%s", k, differs)
		}
	}
	if strings.Contains(fmt.Sprintf("%+v", *inline.KafkaEquivalent), "admin-secret") {
		t.Errorf("the equivalent shows the context's password: %+v", *inline.KafkaEquivalent)
	}
	written := filepath.Join(w.dir, "written-client.properties")
	if err := os.WriteFile(written, []byte("security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config="+jaas+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return []printedCheck{w.dryRunCheck(t, "--command-config", withFile, nil),
		w.dryRunCheck(t, "inline properties", inline, map[string]string{plan.ToolPropertiesFile: written})}
}

// deletes plans delete-offsets and delete-group of throwaway groups, whose printed commands
// run as printed and with --dry-run added.
func (w *kcWorld) deletes(t *testing.T) []printedCheck {
	a, s := w.topic, w.s
	all := map[model.TP]int64{tpOf(a, 0): 1, tpOf(a, 1): 4, tpOf(a, 2): 5}
	var checks []printedCheck
	for _, d := range []struct {
		name  string
		extra []string
	}{{"as printed", nil}, {"with --dry-run", []string{"--dry-run"}}} {
		do, dg := realkafka.Name("kc-do"), realkafka.Name("kc-dg")
		s.Commit(do, all)
		s.Commit(dg, all)
		code, pdo := cliDeleteOffsets(t, "--bootstrap-server", w.b.Addr, "--group", do, "--topic", a+":0,2")
		code2, pdg := cliDeleteGroup(t, "--bootstrap-server", w.b.Addr, "--group", dg)
		if code != exitOK || code2 != exitOK {
			t.Fatalf("delete plans: exit %d, %d; blockers %+v %+v", code, code2, pdo.Blockers, pdg.Blockers)
		}
		checks = append(checks,
			deleteCheck(t, "delete-offsets "+d.name, pdo, d.extra, all, func() map[model.TP]int64 { return s.Committed(do) }),
			deleteCheck(t, "delete-group "+d.name, pdg, d.extra, all, func() map[model.TP]int64 { return s.Committed(dg) }))
	}
	return checks
}

// shareGroups plans every strategy kafka-share-groups.sh has (Kafka 4.4) on an Empty share
// group, and its deletes on throwaway share groups.
func (w *kcWorld) shareGroups(t *testing.T, at, file string) []printedCheck {
	a, s := w.topic, w.s
	starts := map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5, tpOf(a, 2): 1}
	g, partial := realkafka.Name("kc-share"), realkafka.Name("kc-share-partial")
	s.ShareStartOffsets(g, starts)
	// a-2 without a start offset: --to-current puts it at high, so the plan changes something.
	s.ShareStartOffsets(partial, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5})
	cases := []struct {
		name, group string
		args        []string
		want        map[model.TP]int64
	}{
		{"to-earliest", g, []string{"--to-earliest", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 0, tpOf(a, 1): 3, tpOf(a, 2): 0}},
		{"to-latest", g, []string{"--to-latest", "--all-topics"}, map[model.TP]int64{tpOf(a, 0): 8, tpOf(a, 1): 8, tpOf(a, 2): 8}},
		{"to-current", partial, []string{"--to-current", "--topic", a}, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 5, tpOf(a, 2): 8}},
		{"to-offset", g, []string{"--to-offset", "1", "--topic", a + ":0,1"}, map[model.TP]int64{tpOf(a, 0): 1, tpOf(a, 1): 3}},
		{"to-datetime", g, []string{"--to-datetime", at, "--topic", a}, map[model.TP]int64{tpOf(a, 0): 2, tpOf(a, 1): 3, tpOf(a, 2): 2}},
		{"from-file", g, []string{"--from-file", file}, map[model.TP]int64{tpOf(a, 0): 6, tpOf(a, 2): 8}},
	}
	var checks []printedCheck
	for _, c := range cases {
		code, p := cliReset(t, append(append(w.conn, "--group", c.group), c.args...)...)
		if code != exitOK || !maps.Equal(p.targets(), c.want) {
			t.Fatalf("share %s: exit %d targets %v blockers %+v, want 0 and %v", c.name, code, p.targets(), p.Blockers, c.want)
		}
		checks = append(checks, w.dryRunCheck(t, "share "+c.name, p, nil))
	}
	do, dg := realkafka.Name("kc-share-do"), realkafka.Name("kc-share-dg")
	s.ShareStartOffsets(do, starts)
	s.ShareStartOffsets(dg, starts)
	code, pdo := cliDeleteOffsets(t, "--bootstrap-server", w.b.Addr, "--group", do, "--topic", a)
	code2, pdg := cliDeleteGroup(t, "--bootstrap-server", w.b.Addr, "--group", dg)
	if code != exitOK || code2 != exitOK {
		t.Fatalf("share delete plans: exit %d, %d; blockers %+v %+v", code, code2, pdo.Blockers, pdg.Blockers)
	}
	return append(checks,
		deleteCheck(t, "share delete-offsets", pdo, nil, starts, func() map[model.TP]int64 { return s.ShareStarts(do) }),
		deleteCheck(t, "share delete-group", pdg, nil, starts, func() map[model.TP]int64 { return s.ShareStarts(dg) }))
}
