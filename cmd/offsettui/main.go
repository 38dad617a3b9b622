// Command offsettui shows where every Kafka consumer group really stands (low,
// high and committed offsets, lag, time lag, retention, status) and plans guarded
// offset resets. See README.md; the public contract is docs/.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs the command that args name and returns the process exit status.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run with ctx, whose end stops describe --watch, serve and demo as a signal
// does. A command's error is said here, once, on stderr, as "offsettui COMMAND: error"
// (exitcodes.go).
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runIO(ctx, args, os.Stdin, stdout, stderr)
}

// runIO is runContext reading stdin from stdin (apply's typed confirmation).
func runIO(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		args = append([]string{"version"}, args[1:]...)
	}
	args = slices.Clone(args)
	for i, a := range args {
		if a == "-help" { // Go's spelling, which pflag took as --help before -h was a flag
			args[i] = "--help"
		}
	}
	root := newRootCmd()
	if isCompletionRequest(args) {
		registerCompletions(root)
	}
	if args == nil {
		args = []string{} // cobra reads os.Args for nil
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var e *exitError
	if !errors.As(err, &e) || e.err != nil {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "%s: %v\n", cmd.CommandPath(), err)
	}
	return int(codeOf(err))
}
