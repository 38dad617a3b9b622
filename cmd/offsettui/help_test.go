package main

import (
	"bytes"
	"strings"
	"testing"
)

// Every way of asking for help exits 0 with a usage line, the commands or the
// command's flags, and examples, on stdout only.
func TestHelp(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		want   []string
		absent []string
	}{
		{[]string{"--help"}, []string{"Usage:", "offsettui describe [flags]", "Examples:", "--refresh", "Durations: 90s, 36h, 10d"}, nil},
		{[]string{"-h"}, []string{"Usage:", "offsettui check [flags]", "--no-color", "--stall-after DURATION"},
			[]string{"table or json (default table)\n"}}, // the TUI's own flags have no output format
		{[]string{"help"}, []string{"Usage:", "offsettui demo [flags]", "Examples:"}, nil},
		{[]string{"help", "reset"}, []string{"Usage: offsettui reset --group G", "--restore", "--by-duration", "Examples:", "6d23h"}, nil},
		{[]string{"reset", "--help"}, []string{"Usage: offsettui reset --group G", "--execute"}, nil},
		{[]string{"describe", "-h"}, []string{"Usage: offsettui describe", "--fetch-budget", "Examples:", "-o markdown",
			"--sample DURATION", "--interval DURATION", "between the snapshots of --sample and --watch"}, nil},
		{[]string{"help", "check"}, []string{"Usage: offsettui check --group G", "--recovery-window", "Examples:",
			"--sample DURATION", "--interval DURATION", "--stall-after DURATION"}, []string{"--watch"}},
		{[]string{"demo", "--help"}, []string{"Usage: offsettui demo", "Examples:", "kcat", "--debug FILE"},
			[]string{"--bootstrap-server", "--timeout", "--output"}},
		{[]string{"help", "demo"}, []string{"Usage: offsettui demo"}, nil},
		{[]string{"describe", "-help"}, []string{"Usage: offsettui describe"}, nil}, // Go's spelling
		{[]string{"help", "completion"}, []string{"Usage: offsettui completion bash|zsh|fish|powershell", "source <(offsettui completion bash)"}, nil},
		{[]string{"help", "version"}, []string{"offsettui --version"}, nil},
		{[]string{"--version"}, []string{"offsettui ", "go1."}, nil},
		{[]string{"version"}, []string{"offsettui ", "go1."}, nil},
	} {
		var out, errOut bytes.Buffer
		code := run(tc.args, &out, &errOut)
		if code != 0 || errOut.Len() > 0 {
			t.Errorf("%v: exit %d, stderr %q; want 0 and nothing", tc.args, code, errOut.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		own := out.String() // the command's own flags (the root's help starts with those every command takes)
		if i := strings.LastIndex(own, "\nFlags:\n"); i >= 0 {
			own = own[i:]
		}
		for _, w := range tc.absent {
			if strings.Contains(own, w) {
				t.Errorf("%v: its flags have %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// Asking for help on what does not exist is bad input (exit 2) on stderr.
func TestHelpBadInput(t *testing.T) {
	for _, args := range [][]string{{"help", "nosuch"}, {"help", "reset", "check"}, {"nosuch"}, {"--nosuch"}, {"demo", "extra"}} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 || out.Len() > 0 || errOut.Len() == 0 {
			t.Errorf("%v: exit %d stdout %q stderr %q; want 2 with the error on stderr", args, code, out.String(), errOut.String())
		}
	}
}

// What the screens print as a duration (6d23h) is accepted by every duration flag.
func TestDurationFlagsTakeDays(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"describe", "--demo", "--risk-window", "6d23h", "--timeout", "1d"}, &out, &errOut); code != 0 {
		t.Fatalf("describe --risk-window 6d23h: exit %d: %s", code, errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"check", "--demo", "--group", "ledger", "--recovery-window", "10d"}, &out, &errOut); code == 2 {
		t.Fatalf("check --recovery-window 10d: exit 2: %s", errOut.String())
	}
}
