package main

import (
	"os"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/pflag"
)

// runAsOffsettui, set to 1 in a test binary's environment, makes it run as offsettui with its
// arguments: a program under test that spawns offsettui (an MCP client) spawns the test binary.
const runAsOffsettui = "OFFSETTUI_TEST_RUN_AS_OFFSETTUI"

// TestMain runs the package's tests without the watch of a write (--observe 0 by default):
// only the tests of the watch pass --observe.
func TestMain(m *testing.M) {
	if os.Getenv(runAsOffsettui) == "1" {
		// The test binary started as offsettui itself, by a client under test (test/mcp).
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	observeDefault = 0
	os.Exit(m.Run())
}

// TestObserveFlag: --observe takes durations from 0 to 10m, defaults to the executor's 10 s,
// and names itself when it is bad input; --allow-committer is reset's only.
func TestObserveFlag(t *testing.T) {
	saved := observeDefault
	observeDefault = reset.DefaultObserve
	defer func() { observeDefault = saved }()
	for _, c := range []struct {
		args []string
		want time.Duration
		bad  bool
	}{
		{nil, 10 * time.Second, false},
		{[]string{"--observe", "0"}, 0, false},
		{[]string{"--observe", "PT30S"}, 30 * time.Second, false},
		{[]string{"--observe", "10m"}, 10 * time.Minute, false},
		{[]string{"--observe", "11m"}, 0, true},
		{[]string{"--observe", "-1s"}, 0, true},
		{[]string{"--observe", "soon"}, 0, true},
	} {
		var w watchFlags
		fs := pflag.NewFlagSet("reset", pflag.ContinueOnError)
		w.register(fs, true)
		if err := fs.Parse(append(c.args, "--allow-committer")); err != nil {
			t.Fatal(err)
		}
		err := w.parse()
		switch {
		case c.bad && (err == nil || err.Error()[:10] != "--observe:"):
			t.Errorf("%v: error %v, want one naming --observe", c.args, err)
		case !c.bad && (err != nil || w.observeD != c.want || !w.allowCommitter):
			t.Errorf("%v: %v %v (allow %v), want %v", c.args, w.observeD, err, w.allowCommitter, c.want)
		}
	}
	var tui watchFlags
	fs := pflag.NewFlagSet("offsettui", pflag.ContinueOnError)
	tui.register(fs, false)
	if fs.Lookup("allow-committer") != nil {
		t.Error("the TUI has --allow-committer: its override is the planner's ! key")
	}
}
