package main

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/reset"
)

// runAsOffsettui, set to 1 in a test binary's environment, makes it run as offsettui with its
// arguments: a program under test that spawns offsettui (an MCP client, a shell completing a
// line) spawns the test binary.
const runAsOffsettui = "OFFSETTUI_TEST_RUN_AS_OFFSETTUI"

// TestMain runs the package's tests without the watch of a write (--observe 0 by default):
// only the tests of the watch pass --observe.
func TestMain(m *testing.M) {
	if os.Getenv(runAsOffsettui) == "1" {
		main()
	}
	observeDefault = 0
	os.Exit(m.Run())
}

// The commands as the tests call them: each runs the command table as main does.

func describeMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"describe"}, args...), stdout, stderr)
}

func describeContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runContext(ctx, append([]string{"describe"}, args...), stdout, stderr)
}

func resetMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"reset"}, args...), stdout, stderr)
}

func deleteOffsetsMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"delete-offsets"}, args...), stdout, stderr)
}

func deleteGroupMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"delete-group"}, args...), stdout, stderr)
}

// applyMain types the group's name of the plan file it is given as apply's confirmation, as
// the operator would (TestApplyConfirmation tests the confirmation itself).
func applyMain(args []string, stdout, stderr io.Writer) int {
	confirm := ""
	for _, a := range args {
		if p, err := reset.LoadPlanFile(a); err == nil {
			confirm = p.Group + "\n"
			break
		}
	}
	return applyTyping(confirm, args, stdout, stderr)
}

// applyTyping runs apply with typed on its stdin.
func applyTyping(typed string, args []string, stdout, stderr io.Writer) int {
	return runIO(context.Background(), append([]string{"apply"}, args...), strings.NewReader(typed), stdout, stderr)
}

func backupMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"backup"}, args...), stdout, stderr)
}

func checkMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"check"}, args...), stdout, stderr)
}

func serveMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"serve"}, args...), stdout, stderr)
}

func serveContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runContext(ctx, append([]string{"serve"}, args...), stdout, stderr)
}

func demoMain(args []string, stdout, stderr io.Writer, ctx context.Context) int {
	return runContext(ctx, append([]string{"demo"}, args...), stdout, stderr)
}

func contextsMain(args []string, stdout, stderr io.Writer) int {
	return run(append([]string{"contexts"}, args...), stdout, stderr)
}

// runTUI is offsettui without a command: the TUI's flags only.
func runTUI(args []string, stdout, stderr io.Writer) int {
	return run(args, stdout, stderr)
}
