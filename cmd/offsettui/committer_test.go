package main

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/pflag"
)

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
