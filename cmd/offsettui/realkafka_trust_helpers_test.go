package main

// Helpers of the tests that try to break offsettui's promises on the real broker
// (scripts/kafka.sh): a fault proxy in front of it, the parts of describe and
// reset JSON those tests read, the files a reset leaves behind, and the invariant
// that no partial number is shown as whole.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/faultproxy"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// trustWorld is a fresh topic of two partitions with ten records each, and a
// group committed at 4 and 6 (lag 6 + 4), on the real broker.
type trustWorld struct {
	addr  string
	seed  *realkafka.Seed
	topic string
	group string
	want  map[model.TP]int64 // the group's commits
}

func newTrustWorld(t *testing.T, prefix string) trustWorld {
	t.Helper()
	w := trustWorld{addr: realkafka.Addr(t), topic: realkafka.Name(prefix)}
	w.seed = realkafka.NewSeed(t, w.addr)
	w.want = map[model.TP]int64{tpOf(w.topic, 0): 4, tpOf(w.topic, 1): 6}
	w.seed.CreateTopic(w.topic, 2, nil)
	now := time.Now()
	for p := range int32(2) {
		w.seed.ProduceN(w.topic, p, 10, func(int) time.Time { return now.Add(-time.Minute) })
	}
	w.group = realkafka.Name(prefix + "-g")
	w.seed.Commit(w.group, w.want)
	return w
}

// newGroup commits a fresh group at the world's offsets and returns its name
// and a seeding client of t (for subtests, which must not use the world's).
func (w trustWorld) newGroup(t *testing.T, prefix string) (string, *realkafka.Seed) {
	t.Helper()
	s := realkafka.NewSeed(t, w.addr)
	g := realkafka.Name(prefix)
	s.Commit(g, w.want)
	return g, s
}

// proxied is a fault proxy in front of the real broker (a single node) and that
// broker's id.
func proxied(t *testing.T, addr string) (*faultproxy.Proxy, int32) {
	t.Helper()
	p := faultproxy.New(t, []string{addr})
	return p, p.Brokers()[0]
}

// describeJSON runs `offsettui describe args... -o json` in-process and returns
// the exit code, the snapshot (zero when stdout is empty) and stderr.
func describeJSON(t *testing.T, args ...string) (int, model.Snapshot, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := describeMain(append(args, "-o", "json"), &out, &errb)
	var snap model.Snapshot
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
			t.Fatalf("describe %s: exit %d, output is not JSON: %v\n%s", strings.Join(args, " "), code, err, out.String())
		}
	}
	return code, snap, errb.String()
}

// resetResult is the part of `reset -o json` after --execute these tests read.
type resetResult struct {
	Executed bool    `json:"executed"`
	Verified *bool   `json:"verified"`
	Backup   *string `json:"backup"`
	Undo     *string `json:"undo"`
	Rows     []struct {
		Topic     string           `json:"topic"`
		Partition int32            `json:"partition"`
		Target    *int64           `json:"target"`
		Result    plan.WriteResult `json:"result"`
		ReadBack  *int64           `json:"readBack"`
	} `json:"rows"`
	Blockers []plan.Blocker `json:"blockers"`
	Rejected []model.Error  `json:"rejected"`
}

// results maps each row to its result.
func (r resetResult) results() map[model.TP]plan.WriteResult {
	out := map[model.TP]plan.WriteResult{}
	for _, row := range r.Rows {
		out[tpOf(row.Topic, row.Partition)] = row.Result
	}
	return out
}

// rejectedCodes are the Kafka error codes of the rejected partitions.
func (r resetResult) rejectedCodes() map[model.TP]string {
	out := map[model.TP]string{}
	for _, e := range r.Rejected {
		if e.Topic != nil && e.Partition != nil && e.Code != nil {
			out[tpOf(*e.Topic, *e.Partition)] = *e.Code
		}
	}
	return out
}

// runReset runs `offsettui reset args... -o json` in-process; the result is zero
// when nothing was printed (a refusal before any plan).
func runReset(t *testing.T, args ...string) (int, resetResult, string) {
	t.Helper()
	return runWrite(t, "reset", resetMain, args...)
}

// runWrite runs the write command name (its main, as main dispatches it) with args and
// -o json in-process, as runReset does reset.
func runWrite(t *testing.T, name string, main func([]string, io.Writer, io.Writer) int, args ...string) (int, resetResult, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := main(append(args, "-o", "json"), &out, &errb)
	var r resetResult
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%s %s: exit %d, output is not JSON: %v\n%s", name, strings.Join(args, " "), code, err, out.String())
		}
	}
	t.Logf("offsettui %s %s → exit %d\n%s%s", name, strings.Join(args, " "), code, out.String(), errb.String())
	return code, r, errb.String()
}

// backupFiles lists the backup CSVs (undo files included) in dir.
func backupFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".csv") || strings.HasSuffix(e.Name(), ".manifest.json") {
			out = append(out, e.Name())
		}
	}
	return out
}

// auditLine is the part of an audit.log line these tests read.
type auditLine struct {
	Event  string  `json:"event"`
	ID     string  `json:"id"`
	Result *string `json:"result"`
	Undo   *string `json:"undo"`
}

// auditLog reads dir's audit.log (none: nil).
func auditLog(t *testing.T, dir string) []auditLine { return readAudit[auditLine](t, dir) }

// readAudit reads dir's audit.log into T, the part of a line a test reads (none: nil).
func readAudit[T any](t *testing.T, dir string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "audit.log"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l T
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("audit line %q: %v", sc.Text(), err)
		}
		out = append(out, l)
	}
	return out
}

// wantAudit fails unless the audit log holds exactly one intent and one outcome
// of result, paired by id.
func wantAudit(t *testing.T, dir, result string) {
	t.Helper()
	log := auditLog(t, dir)
	if len(log) != 2 || log[0].Event != "intent" || log[1].Event != "outcome" || log[0].ID != log[1].ID ||
		log[1].Result == nil || *log[1].Result != result {
		t.Errorf("audit log %+v; want an intent and an outcome %q with one id", log, result)
	}
}

// noPartialAsWhole fails when a group of snap shows a number it cannot know: a
// total beside an unknown partition or an unreadable group, a lower bound when no
// lag was read, an ok partition with an error, or ok for a group with an error.
func noPartialAsWhole(t *testing.T, snap model.Snapshot) {
	t.Helper()
	for _, g := range snap.Groups {
		unknown := g.Error != nil || slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Status == model.StatusUnknown })
		read := slices.ContainsFunc(g.Partitions, func(p model.GroupPartition) bool { return p.Lag != nil })
		switch {
		case unknown && g.TotalLag != nil:
			t.Errorf("group %s: totalLag %d with something unknown", g.Group, *g.TotalLag)
		case unknown && g.WorstStatus != model.StatusUnknown:
			t.Errorf("group %s: worst status %s with something unknown", g.Group, g.WorstStatus)
		case g.TotalLagAtLeast != nil && !read:
			t.Errorf("group %s: totalLagAtLeast %d but no partition's lag was read", g.Group, *g.TotalLagAtLeast)
		}
		for _, p := range g.Partitions {
			if p.Status == model.StatusOK && p.Error != nil {
				t.Errorf("group %s: %s-%d ok with error %v", g.Group, p.Topic, p.Partition, p.Error)
			}
		}
	}
}

// restoreFileOf is the file the undo command printed with r restores.
func restoreFileOf(t *testing.T, r resetResult) string {
	t.Helper()
	if r.Undo == nil {
		t.Fatal("no undo command")
	}
	f := strings.Fields(*r.Undo)
	for i, a := range f {
		if a == "--restore" && i+1 < len(f) {
			return f[i+1]
		}
	}
	t.Fatalf("undo %q names no --restore file", *r.Undo)
	return ""
}
