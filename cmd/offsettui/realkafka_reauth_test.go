package main

// Sessions that expire (KIP-368): scripts/kafka.sh's REAUTH listener ends every SASL session
// after a few seconds (connections.max.reauth.ms), so a client must re-authenticate on each
// connection it keeps, or the broker closes it. With a live group of each type that offsettui
// reads through a different client (share: franz-go; consumer and classic: sarama), a watch
// and a TUI that run several session lifetimes must never show an error.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/views"
)

// reauthWorld is a live share group, a live consumer-protocol group and a live classic
// group, and client.properties files for the REAUTH listener.
type reauthWorld struct {
	addr     string        // the REAUTH listener
	lifetime time.Duration // its session lifetime
	groups   []string      // share, consumer, classic
	topic    string        // the topic they read
	props    map[string]string
}

func newReauthWorld(t *testing.T) reauthWorld {
	t.Helper()
	plain := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, plain)
	ms, err := strconv.Atoi(realkafka.Env(t, "OFFSETTUI_IT_REAUTH_MS"))
	if err != nil {
		t.Fatalf("OFFSETTUI_IT_REAUTH_MS: %v", err)
	}
	w := reauthWorld{addr: realkafka.Env(t, "OFFSETTUI_IT_REAUTH_BOOTSTRAP"), lifetime: time.Duration(ms) * time.Millisecond}
	s := realkafka.NewSeed(t, plain)
	topic := realkafka.Name("reauth")
	w.topic = topic
	s.CreateTopic(topic, 2, nil)
	s.ProduceN(topic, 0, 5, func(int) time.Time { return time.Now() })
	share, consumer, classic := topic+"-share", topic+"-consumer", topic+"-classic"
	w.groups = []string{share, consumer, classic}
	realkafka.ShareConsumer(t, plain, share, topic)
	realkafka.ConsoleConsumer(t, plain, consumer, "reauth-consumer", topic)
	realkafka.ClassicMember(t, plain, classic, "reauth-classic", topic)
	dir := t.TempDir()
	scram := writeTestFile(t, filepath.Join(dir, "scram.properties"), "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\n"+
		"sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"admin-secret\";\n", 0o600)
	// Tokens that outlive the watch: the session ends by connections.max.reauth.ms, not by the token.
	oauth := realkafka.OAuthProperties(realkafka.OIDCEndpoint(t, realkafka.OAuthKey(t), time.Hour, nil), "oidc-secret")
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(oauth)) {
		fmt.Fprintf(&b, "%s=%s\n", k, oauth[k])
	}
	w.props = map[string]string{"SCRAM-SHA-512": scram,
		"OAUTHBEARER": writeTestFile(t, filepath.Join(dir, "oauth.properties"), b.String(), 0o600)}
	realkafka.WaitUntil(t, 90*time.Second, "the three groups live", func() (bool, string) {
		snap := w.describe(t, "SCRAM-SHA-512")
		return len(w.problems(snap)) == 0, strings.Join(w.problems(snap), "; ")
	})
	return w
}

// describe is one `describe -o json` of the three groups over mech (exit 3 while one does
// not exist yet).
func (w reauthWorld) describe(t *testing.T, mech string) model.Snapshot {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args := append(w.groupArgs(), "--bootstrap-server", w.addr, "--command-config", w.props[mech], "-o", "json")
	if code := describeContext(context.Background(), args, &stdout, &stderr); code != exitOK && code != exitNotFound {
		t.Fatalf("describe over %s: exit %d: %s", mech, code, stderr.String())
	}
	var s model.Snapshot
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

func (w reauthWorld) groupArgs() []string {
	var out []string
	for _, g := range w.groups {
		out = append(out, "--group", g)
	}
	return out
}

// problems says what in a snapshot is not a clean read of the three live groups: an error
// (other than one on another test's group or topic), a group missing, unknown, or without
// members.
func (w reauthWorld) problems(s model.Snapshot) []string {
	var out []string
	for _, e := range s.Errors {
		if (e.Group == nil || slices.Contains(w.groups, *e.Group)) && (e.Topic == nil || *e.Topic == w.topic) {
			out = append(out, "error: "+e.Error())
		}
	}
	for _, name := range w.groups {
		i := slices.IndexFunc(s.Groups, func(g model.Group) bool { return g.Group == name })
		switch {
		case i < 0:
			out = append(out, name+": not in the snapshot")
		case s.Groups[i].Error != nil || s.Groups[i].WorstStatus == model.StatusUnknown:
			out = append(out, fmt.Sprintf("%s: %s, error %v", name, s.Groups[i].WorstStatus, s.Groups[i].Error))
		case len(s.Groups[i].Members) == 0:
			out = append(out, name+": no members yet")
		}
	}
	return out
}

// TestRealKafkaReauth, at once, each for at least four session lifetimes: `describe --watch -o json`
// over SCRAM-SHA-512 and over OAUTHBEARER, a snapshot every fifth of the lifetime, reads the
// three live groups without an error in every snapshot; the TUI over SCRAM-SHA-512,
// refreshing as often, shows none of them unknown or with an error in any refresh.
func TestRealKafkaReauth(t *testing.T) {
	w := newReauthWorld(t)
	for _, mech := range []string{"SCRAM-SHA-512", "OAUTHBEARER"} {
		t.Run("watch over "+mech, func(t *testing.T) {
			t.Parallel()
			watchReauth(t, w, mech)
		})
	}
	t.Run("TUI over SCRAM-SHA-512", func(t *testing.T) {
		t.Parallel()
		tuiReauth(t, w)
	})
}

// watchReauth runs the watch over mech and counts the snapshots with an error.
func watchReauth(t *testing.T, w reauthWorld, mech string) {
	// Stopped as Ctrl-C stops it (a cancel, not a deadline that the snapshot in
	// flight would report as its own).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(w.longest(), cancel)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		args := append(w.groupArgs(), "--bootstrap-server", w.addr, "--command-config", w.props[mech],
			"--watch", "--interval", (w.lifetime / 5).String(), "-o", "json")
		done <- describeContext(ctx, args, pw, &stderr)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<24)
	frames, bad := 0, 0
	var first, last time.Time
	for sc.Scan() {
		var s model.Snapshot
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("frame %d: %v", frames, err)
		}
		frames++
		if first.IsZero() {
			first = s.Cluster.TakenAt.Time
		}
		last = s.Cluster.TakenAt.Time
		if p := w.problems(s); len(p) > 0 {
			bad++
			t.Logf("snapshot %d at %s: %s", frames, s.Cluster.TakenAt.Format("15:04:05.000"), strings.Join(p, "; "))
		}
		if last.Sub(first) >= 4*w.lifetime && w.spans(frames, first, last) {
			cancel() // enough: a loaded machine takes fewer snapshots per lifetime, and runs longer
		}
	}
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
	failed := strings.Count(stderr.String(), "\n")
	t.Logf("over %s with sessions of %v: %d of %d snapshots with errors, %d failed snapshots (stderr %q), over %v",
		mech, w.lifetime, bad, frames, failed, stderr.String(), last.Sub(first).Round(time.Millisecond))
	if bad > 0 || failed > 0 || !w.spans(frames, first, last) {
		t.Errorf("%d of %d snapshots with errors and %d failed, over %v; want snapshots over three session lifetimes, none with an error",
			bad, frames, failed, last.Sub(first))
	}
}

// longest bounds a watch or a TUI run: on a loaded machine each snapshot takes longer, and
// the TUI waits three times a snapshot's duration before the next, so a run goes on until
// its snapshots span enough lifetimes, up to this.
func (w reauthWorld) longest() time.Duration { return 20 * w.lifetime }

// spans reports whether snapshots taken from first to last cover three session lifetimes,
// at least two per lifetime: a loaded machine takes fewer than one per --interval.
func (w reauthWorld) spans(n int, first, last time.Time) bool {
	return n >= 6 && last.Sub(first) >= 3*w.lifetime
}

// recordingSource passes the TUI's snapshots through (staged, as lazyClient gives them)
// and keeps what each showed of the three groups.
type recordingSource struct {
	src *lazyClient
	w   reauthWorld

	mu          sync.Mutex
	snapshots   int
	first, last time.Time
	bad         []string
}

func (r *recordingSource) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	return r.record(ctx, q)(r.src.Snapshot(ctx, q))
}

func (r *recordingSource) SnapshotStaged(ctx context.Context, q model.Query, listed func(model.Snapshot)) (model.Snapshot, error) {
	return r.record(ctx, q)(r.src.SnapshotStaged(ctx, q, listed))
}

// record returns what keeps one refresh's snapshot. The group screen's lazy reads (one
// group) are not refreshes of the list, and a refresh abandoned by the quit is not one
// the TUI shows: both pass unrecorded.
func (r *recordingSource) record(ctx context.Context, q model.Query) func(model.Snapshot, error) (model.Snapshot, error) {
	return func(s model.Snapshot, err error) (model.Snapshot, error) {
		if len(q.Groups) == 0 && ctx.Err() == nil {
			r.keep(s, err)
		}
		return s, err
	}
}

// spanned reports whether the refreshes recorded cover d and three session lifetimes.
func (r *recordingSource) spanned(d time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last.Sub(r.first) >= d && r.w.spans(r.snapshots, r.first, r.last)
}

func (r *recordingSource) keep(s model.Snapshot, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.snapshots++
	if r.first.IsZero() {
		r.first = time.Now()
	}
	r.last = time.Now()
	switch p := r.w.problems(s); {
	case err != nil:
		r.bad = append(r.bad, fmt.Sprintf("refresh %d: %v", r.snapshots, err))
	case len(p) > 0:
		r.bad = append(r.bad, fmt.Sprintf("refresh %d: %s", r.snapshots, strings.Join(p, "; ")))
	}
}

// tuiReauth runs the TUI over SCRAM-SHA-512 and counts the refreshes that show one of the
// three groups unknown or with an error; its last screen must not show UNKNOWN.
func tuiReauth(t *testing.T, w reauthWorld) {
	c := common{bootstrap: w.addr, commandConfig: w.props["SCRAM-SHA-512"], timeoutD: 10 * time.Second,
		riskWindowD: time.Hour, stderr: io.Discard}
	conn, err := c.resolveConnection(io.Discard) // as runTUI does
	if err != nil {
		t.Fatal(err)
	}
	lc := &lazyClient{c: c, conn: &conn}
	defer lc.close()
	opts := tuiOptions(c, lc, w.lifetime/5, true, t.TempDir())
	rec := &recordingSource{src: lc, w: w}
	opts.Source = rec
	// Wide enough that the GROUP column shows the names whole whatever the statuses' width
	// (a wide status, "MISSING 2" while a consumer has not committed yet, takes room).
	tm := teatest.NewTestModel(t, views.New(opts), teatest.WithInitialTermSize(240, 40))
	// Filter the list to the three groups (their names start with the topic's): other
	// tests' groups on the same broker come and go.
	time.Sleep(w.lifetime / 5)
	tm.Type("/" + w.topic)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	for end := time.Now().Add(w.longest()); time.Now().Before(end) && !rec.spanned(4*w.lifetime); {
		time.Sleep(w.lifetime / 5)
	}
	tm.Type("q")
	final := ansi.Strip(tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	t.Logf("TUI over SCRAM-SHA-512 with sessions of %v: %d of %d refreshes with the groups unknown or an error, over %v",
		w.lifetime, len(rec.bad), rec.snapshots, rec.last.Sub(rec.first).Round(time.Millisecond))
	for _, b := range rec.bad {
		t.Log(b)
	}
	if len(rec.bad) > 0 || !w.spans(rec.snapshots, rec.first, rec.last) {
		t.Errorf("%d of %d refreshes with errors, over %v; want refreshes over three session lifetimes, none with an error",
			len(rec.bad), rec.snapshots, rec.last.Sub(rec.first))
	}
	for _, g := range w.groups {
		if !strings.Contains(final, g) {
			t.Errorf("the last screen does not show %s:\n%s", g, final)
		}
	}
	if strings.Contains(final, "UNKNOWN") {
		t.Errorf("the last screen shows UNKNOWN:\n%s", final)
	}
}
