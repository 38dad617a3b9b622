// Command offsettui shows where every Kafka consumer group really stands (low,
// high and committed offsets, lag, time lag, retention, status) and plans guarded
// offset resets. See README.md; the public contract is docs/.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes (docs/cli.md).
const (
	exitOK       = 0
	exitFailure  = 1
	exitBadInput = 2
	exitBlocked  = 3
	// exitNotFound: describe was asked for a group that does not exist.
	exitNotFound = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches a subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	cmd, rest := "", args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, rest = args[0], args[1:]
	}
	if cmd == "" && len(rest) > 0 && (rest[0] == "--version" || rest[0] == "-version") {
		cmd, rest = "version", rest[1:]
	}
	switch cmd {
	case "":
		return runTUI(rest, stdout, stderr)
	case "describe":
		return describeMain(rest, stdout, stderr)
	case "reset":
		return resetMain(rest, stdout, stderr)
	case "backup":
		return backupMain(rest, stdout, stderr)
	case "delete-group":
		return deleteGroupMain(rest, stdout, stderr)
	case "delete-offsets":
		return deleteOffsetsMain(rest, stdout, stderr)
	case "check":
		return checkMain(rest, stdout, stderr)
	case "serve":
		return serveMain(rest, stdout, stderr)
	case "mcp":
		return mcpMain(rest, os.Stdin, stdout, stderr)
	case "demo":
		ctx, stop := signalContext()
		defer stop()
		return demoMain(rest, stdout, stderr, ctx)
	case "contexts":
		return contextsMain(rest, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, versionText())
		return exitOK
	case "help":
		return helpMain(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "offsettui: unknown command %q: %s (offsettui --help shows the usage)\n", cmd, commandList)
		return exitBadInput
	}
}

// commandList names the commands, for an unknown one.
const commandList = "the commands are describe, reset, check, delete-offsets, delete-group, backup, serve, mcp, demo, contexts, help and version; without one, the TUI"

// helpMain is `offsettui help [COMMAND]`: the general usage, or a command's
// own, exactly as `COMMAND --help` prints it.
func helpMain(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) == 0:
		fmt.Fprint(stdout, usage)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(stderr, "offsettui help: one command at a time, got %q\n", args)
		return exitBadInput
	case args[0] == "version":
		fmt.Fprint(stdout, "Usage: offsettui --version (or offsettui version)\n\nPrints the version, the Go version and the commit it was built from.\n")
		return exitOK
	case args[0] == "help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if _, ok := commandHelp[args[0]]; !ok {
		fmt.Fprintf(stderr, "offsettui help: unknown command %q: %s\n", args[0], commandList)
		return exitBadInput
	}
	return run([]string{args[0], "--help"}, stdout, stderr)
}
