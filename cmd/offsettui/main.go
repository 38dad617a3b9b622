// Command offsettui shows where every Kafka consumer group really stands (low,
// high and committed offsets, lag, time lag, retention, status) and plans guarded
// offset resets. See README.md; the public contract is docs/.
package main

import (
	"fmt"
	"os"
)

// Exit codes (docs/cli.md).
const (
	exitOK        = 0
	exitFailure   = 1
	exitBadInput  = 2
	exitBlocked   = 3
	exitPartially = 4
	// exitNotFound: describe was asked for a group that does not exist.
	exitNotFound = 3
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// run dispatches a subcommand and returns the process exit code.
func run(args []string) int {
	cmd, rest := "", args
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, rest = args[0], args[1:]
	}
	switch cmd {
	case "":
		return runTUI(rest)
	case "describe":
		return runDescribe(rest)
	case "reset":
		return runReset(rest)
	case "check":
		return runCheck(rest)
	case "demo":
		return runDemo(rest)
	case "help":
		fmt.Fprint(os.Stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(os.Stderr, "offsettui: unknown command %q\n\n%s", cmd, usage)
		return exitBadInput
	}
}

const usage = `offsettui: where every Kafka consumer group really stands.

Usage:
  offsettui [flags]            the interactive inspector (TUI)
  offsettui describe [flags]   every group's positions as a table or JSON
  offsettui reset [flags]      plan (default) or --execute an offset reset
  offsettui check [flags]      fail-closed start-up proof for one group
  offsettui demo               run the embedded demo cluster and print its address

Connection flags (every command):
  --bootstrap-server host:port[,host:port]  (env KAFKA_BOOTSTRAP_SERVERS)
  --command-config FILE   Kafka client.properties (TLS, SASL)
  --demo                  use the embedded demo cluster
  --timeout DURATION      per request (default 10s)
  --risk-window DURATION  at-risk look-ahead (default 24h)
  --read-only             refuse every write (env OFFSETTUI_READ_ONLY=1)
  --debug FILE            write debug logs to FILE
  -o table|json           output format (default table)

Run "offsettui COMMAND --help" for a command's own flags.
`
