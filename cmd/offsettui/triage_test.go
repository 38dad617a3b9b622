package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model/plan"
)

// An unknown command says so in one stderr line, exit 2, with the closest command and every
// command of the table (serve and completion too), not the whole usage; so does `help` of
// one (docs/cli.md).
func TestUnknownCommandIsOneLine(t *testing.T) {
	all := "describe, reset, delete-offsets, delete-group, apply, backup, check, serve, mcp, demo, contexts, completion, version and help"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"desribe"}, `offsettui: unknown command "desribe" (did you mean describe?); the commands are ` + all + "; without one, the TUI"},
		{[]string{"describ"}, `offsettui: unknown command "describ" (did you mean describe?); the commands are ` + all},
		{[]string{"delete"}, `offsettui: unknown command "delete" (did you mean delete-offsets or delete-group?); the commands are ` + all},
		{[]string{"frobnicate"}, `offsettui: unknown command "frobnicate"; the commands are ` + all},
		{[]string{"help", "desribe"}, `offsettui help: unknown command "desribe" (did you mean describe?); the commands are ` + all},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != exitBadInput || out.Len() > 0 || strings.Count(errb.String(), "\n") != 1 || !strings.HasPrefix(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and one line starting %q", tc.args, code, out.String(), errb.String(), tc.want)
		}
	}
	var names []string
	for _, c := range newRootCmd().Commands() {
		if !c.Hidden {
			names = append(names, c.Name())
		}
	}
	if got := strings.Join(names, ", "); got != strings.Replace(all, " and ", ", ", 1) {
		t.Errorf("the command table holds %s; the message above names %s", got, all)
	}
}

// A bootstrap address without a port (or with a bad one) is bad input, exit 2,
// in every command and the TUI: it was a connection failure, exit 1.
func TestBootstrapWithoutAPortIsBadInput(t *testing.T) {
	for _, addr := range []string{"localhost", "localhost:abc", ":9092", "kafka:0", "kafka:9092,localhost"} {
		for _, args := range [][]string{
			{"describe", "--bootstrap-server", addr, "--timeout", "1s"},
			{"check", "--bootstrap-server", addr, "--group", "g", "--timeout", "1s"},
			{"--bootstrap-server", addr},
		} {
			var out, errb bytes.Buffer
			if code := run(args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "want host:port") {
				t.Errorf("%v: exit %d, stderr %q; want 2 naming host:port", args, code, errb.String())
			}
		}
	}
}

// The TUI with stdout redirected (offsettui > file) says why it cannot draw,
// exit 2, instead of drawing into the file while the terminal stays blank.
func TestTUIRefusesARedirectedStdout(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var errb bytes.Buffer
	if code := runTUI([]string{"--demo"}, f, &errb); code != exitBadInput || !strings.Contains(errb.String(), "stdout is not one") ||
		!strings.Contains(errb.String(), "offsettui describe") {
		t.Errorf("exit %d, stderr %q; want 2, saying stdout is not a terminal and what to use", code, errb.String())
	}
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("%d bytes drawn into the file", st.Size())
	}
}

// help demo's example runs kcat as soon as the demo prints its address, while
// the demo keeps running ("$(offsettui demo | head -1)" never returned: the
// shell waits for the whole pipe). offsettui and kcat are stand-ins here.
func TestHelpDemoExampleRunsKcat(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	var out bytes.Buffer
	if code := run([]string{"help", "demo"}, &out, &out); code != exitOK || !strings.Contains(out.String(), demoKcatExample) {
		t.Fatalf("help demo (exit %d) lacks the example:\n%s", code, out.String())
	}
	done := filepath.Join(t.TempDir(), "kcat-ran")
	script := `offsettui() { echo 127.0.0.1:39092; sleep 30; }` + "\n" +
		`kcat() { echo "$@" > "` + done + `"; }` + "\n" + demoKcatExample
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(done); err == nil && strings.TrimSpace(string(b)) == "-b 127.0.0.1:39092 -L" {
			return
		}
	}
	t.Fatal("the example did not run kcat with the demo's address within 5s")
}

// describe --group of a group that does not exist says so, exit 3; it printed
// "classic · Dead" as if the group were there.
func TestDescribeSaysAGroupDoesNotExist(t *testing.T) {
	var out, errb bytes.Buffer
	code := describeMain([]string{"--demo", "--group", "nosuch"}, &out, &errb)
	if code != exitNotFound || !strings.Contains(out.String(), "Group 'nosuch' does not exist: no broker lists it") ||
		strings.Contains(out.String(), "Dead") || strings.Contains(out.String(), "classic") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
}

// reset of a group no broker lists is blocked, exit 3, and its dry run does
// not say "Add --execute"; --allow-new-group plans it, saying it creates the
// group. It planned cleanly (exit 0) without a word.
func TestResetOfAGroupThatDoesNotExist(t *testing.T) {
	addr := startDemo(t)
	base := []string{"--bootstrap-server", addr, "--backup-dir", t.TempDir(), "--group", "nosuch", "--topic", "outbox", "--to-earliest"}
	var out, errb bytes.Buffer
	code := resetMain(base, &out, &errb)
	if code != exitBlocked || !strings.Contains(out.String(), "[group-not-found] group nosuch does not exist") ||
		!strings.Contains(out.String(), "Reset plan for group 'nosuch' (does not exist)") {
		t.Errorf("exit %d:\n%s", code, out.String())
	}
	if strings.Contains(errb.String(), "Add --execute") || !strings.Contains(errb.String(), "--execute would refuse it") {
		t.Errorf("a blocked dry run says %q", errb.String())
	}
	out.Reset()
	code = resetMain(append(base, "--allow-new-group", "-o", "json"), &out, &errb)
	var p plan.Plan
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if code != exitOK || !p.Executable() || len(p.Notes) != 1 || p.Notes[0].Kind != plan.NoteNewGroup {
		t.Errorf("--allow-new-group: exit %d, blockers %+v, notes %+v", code, p.Blockers, p.Notes)
	}
}

// reset --execute says its outcome in a word, on stdout with what it means and
// on stderr, applied too; it printed none.
func TestResetExecuteSaysItsOutcome(t *testing.T) {
	addr := startDemo(t)
	var out, errb bytes.Buffer
	code := resetMain([]string{"--bootstrap-server", addr, "--backup-dir", t.TempDir(), "--group", "ship-svc", "--topic", "shipments",
		"--to-offset", "1", "--execute"}, &out, &errb)
	if code != exitOK || !strings.Contains(out.String(), "outcome:  applied: every offset was written and read back equal to the plan") ||
		!strings.Contains(errb.String(), "offsettui reset: applied") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
}
