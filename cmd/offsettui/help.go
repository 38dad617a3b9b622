package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"
)

// usage is what `offsettui --help`, `-h` and `help` print.
const usage = `offsettui: where every Kafka consumer group really stands, and guarded offset resets.

Usage:
  offsettui [flags]              the interactive inspector (TUI)
  offsettui describe [flags]     every group's positions as a table or JSON
  offsettui reset [flags]        plan (default) or --execute an offset reset; --restore undoes one
  offsettui delete-offsets [flags]  plan or --execute deleting a group's commits on topics
  offsettui delete-group [flags] plan or --execute deleting an Empty group, after a backup
  offsettui backup [flags]       one backup per group (--group G... or --all-groups), one archive in --dir
  offsettui check [flags]        fail-closed proof that one group can start without losing data
  offsettui serve [flags]        a Prometheus exporter: lag, time to loss, statuses on /metrics;
                                 a read API (/api/v1) and MCP (/mcp) from the same snapshots
  offsettui mcp [flags]          an MCP server over stdio for agents: read, check and plan, never write
  offsettui demo [flags]         run the embedded demo cluster and print its address
  offsettui contexts [flags]     list the named clusters of the config file, secrets masked
  offsettui help [COMMAND]       this text, or a command's flags and examples
  offsettui --version            version and build

Flags every command takes:
  --context NAME           a named cluster of the config file (env OFFSETTUI_CONTEXT)
  --config FILE            the contexts file (default $XDG_CONFIG_HOME/offsettui/config.yaml)
  --bootstrap-server host:port[,host:port]   the cluster (env KAFKA_BOOTSTRAP_SERVERS)
  --command-config FILE    a Kafka client.properties (TLS: PEM, JKS, PKCS12; SASL: PLAIN, SCRAM,
                           OAUTHBEARER, AWS MSK IAM; ${env:...} config providers)
  --demo                   the embedded demo cluster instead of a real one
  --timeout DURATION       a request without an answer within it fails (default 10s)
  --risk-window DURATION   how far ahead at-risk looks (default 24h)
  --read-only              refuse every write (env OFFSETTUI_READ_ONLY: any value but empty,
                           0, false, no, off; a read-only context is read-only too)
  --debug FILE             append debug logs to FILE
  -o, --output FORMAT      table or json (default table); describe also markdown, the
                           incident report; not the TUI

Durations: 90s, 36h, 10d, 6d23h (Go syntax, d = 24h) or ISO-8601 (PT36H, P3D).

Examples:
  offsettui --demo                                   try it without a cluster
  offsettui --bootstrap-server kafka:9092 --read-only
  offsettui --context prod                           a cluster named in the config file
  offsettui describe --bootstrap-server kafka:9092 --group billing -o json
  offsettui reset --bootstrap-server kafka:9092 --group billing --topic orders --by-duration 2h
  offsettui check --bootstrap-server kafka:9092 --group billing --recovery-window P3D

Exit codes and every flag: docs/cli.md; contexts and client properties: docs/connect.md. Run "offsettui help COMMAND" for a command's own flags.
`

// cmdHelp is a command's help: what it does, how it is called and examples.
type cmdHelp struct {
	usage, about, examples string
}

// commandHelp holds each command's help, by the name of its flag set ("offsettui"
// for the TUI).
var commandHelp = map[string]cmdHelp{
	"offsettui": {
		usage: "offsettui [flags]",
		about: "The interactive inspector: every group worst first, one group's partitions with why each\n" +
			"status, and the reset planner (R). Keys: ? in the TUI, and docs/tui.md.",
		examples: "  offsettui --demo\n  offsettui --bootstrap-server kafka:9092 --command-config client.properties --read-only\n" +
			"  offsettui --bootstrap-server kafka:9092 --refresh 0        # read only when r is pressed",
	},
	"describe": {
		usage: "offsettui describe [flags]",
		about: "Every group's positions (low, committed, high, lag, status, time lag, expires-in) as a table\n" +
			"like kafka-consumer-groups --describe, as JSON (docs/json.md), or as the Markdown incident\n" +
			"report (-o markdown) the TUI's w writes.",
		examples: "  offsettui describe --demo\n  offsettui describe --bootstrap-server kafka:9092 --group billing --group audit-export\n" +
			"  offsettui describe --bootstrap-server kafka:9092 --topic orders -o json\n" +
			"  offsettui describe --bootstrap-server kafka:9092 --sample 30s -o markdown > incident.md",
	},
	"reset": {
		usage: "offsettui reset --group G (--all-topics | --topic T[:P,P]...) STRATEGY [--execute] [flags]\n" +
			"       offsettui reset --group G --restore BACKUP [--execute] [flags]",
		about: "Plans an offset reset with kafka-consumer-groups --reset-offsets semantics and shows what each\n" +
			"move re-delivers or skips; --execute writes it only when the group is empty and every guard\n" +
			"holds, after a backup, and prints the undo command (docs/resets.md).",
		examples: "  offsettui reset --demo --group fanout --all-topics --to-earliest\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --topic orders:0,2 --shift-by -100\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --all-topics --by-duration 6d23h --execute\n" +
			"  offsettui reset --bootstrap-server kafka:9092 --group billing --restore ~/.local/state/offsettui/billing-….csv --execute",
	},
	"delete-offsets": {
		usage: "offsettui delete-offsets --group G (--topic T[:P,P]... | --all-topics) [--execute] [flags]",
		about: "Plans deleting a group's commits with kafka-consumer-groups --delete-offsets semantics (OffsetDelete):\n" +
			"a live group is not refused as such, the broker refuses the topics it subscribes to, per partition.\n" +
			"Each row says where the consumer starts without its commit (--assume-reset). --execute writes a\n" +
			"backup first and prints the undo (reset --restore) (docs/resets.md#deleting-commits).",
		examples: "  offsettui delete-offsets --bootstrap-server kafka:9092 --group billing --topic retired-orders\n" +
			"  offsettui delete-offsets --bootstrap-server kafka:9092 --group billing --topic retired-orders:0,2 --execute",
	},
	"delete-group": {
		usage: "offsettui delete-group --group G [--execute] [flags]",
		about: "Plans deleting an Empty group (kafka-consumer-groups --delete, DeleteGroups) with every commit it\n" +
			"removes; --execute writes a backup first and prints the undo (reset --restore into the same\n" +
			"name) (docs/resets.md#deleting-a-group).",
		examples: "  offsettui delete-group --bootstrap-server kafka:9092 --group decommissioned-svc --execute",
	},
	"backup": {
		usage: "offsettui backup (--group G... | --all-groups) --dir DIR [flags]",
		about: "Writes one self-checking backup per group (the CSV and manifest a reset writes) from one\n" +
			"snapshot, all in one archive that reset --restore takes group by group; one line per group;\n" +
			"exit 0 only when every group was saved (docs/resets.md#backing-up-a-cluster).",
		examples: "  offsettui backup --bootstrap-server kafka:9092 --all-groups --dir ./before-maintenance",
	},
	"check": {
		usage: "offsettui check --group G [--topic T]... [--recovery-window DURATION] [--assume-reset earliest|latest|none] [flags]",
		about: "A fail-closed proof that one group's consumer can start without losing data: exit 0 every\n" +
			"partition passes, 1 one fails, 2 the proof could not be completed. The last line is the verdict.",
		examples: "  offsettui check --demo --group fanout\n" +
			"  offsettui check --bootstrap-server kafka:9092 --group fanout --topic outbox --recovery-window P3D --assume-reset earliest\n" +
			"  offsettui check --server http://offsettui:9308 --group fanout --topic outbox --assume-reset earliest   # a running serve's snapshot",
	},
	"mcp": {
		usage: "offsettui mcp [flags]",
		about: "A Model Context Protocol server over stdin and stdout for one cluster: the tools list_groups,\n" +
			"describe_group, check_group, explain_status and plan_reset, plan_delete_offsets, plan_delete_group,\n" +
			"plan_copy answer the JSON of describe, check and the dry runs of reset (docs/api.md). No tool\n" +
			"writes to Kafka; a person applies a plan with the CLI.",
		examples: "  offsettui mcp --context prod --read-only\n" +
			"  claude mcp add offsettui -- offsettui mcp --bootstrap-server kafka:9092",
	},
	"serve": {
		usage: "offsettui serve [--listen ADDR] [--interval DURATION] [--context NAME]... [--all-contexts] [flags]",
		about: "A Prometheus exporter that pages before the loss: it snapshots each cluster every --interval,\n" +
			"keeps the time axis, and serves lag, lag in seconds, rates, ETA, time to loss, records lost,\n" +
			"statuses and evaluations on /metrics (docs/metrics.md), with /healthz and /readyz, and from the\n" +
			"same snapshots a read API (/api/v1, check --server) and MCP (/mcp) (docs/api.md). It never\n" +
			"writes. Alert rules and a Grafana dashboard: deploy/. SIGINT or SIGTERM ends it (exit 0).",
		examples: "  offsettui serve --demo\n" +
			"  offsettui serve --context prod-eu --context prod-us --listen :9308\n" +
			"  offsettui serve --all-contexts --interval 1m\n" +
			"  offsettui serve --context prod --include-group 'payments-.*' --exclude-group '.*-canary' --granularity topic\n" +
			"  curl -s localhost:9308/metrics | grep offsettui_group_loss_seconds\n" +
			"  curl -s localhost:9308/api/v1/check/fanout?topic=outbox",
	},
	"contexts": {
		usage: "offsettui contexts [--config FILE] [-o table|json]",
		about: "Lists the contexts of the config file ($XDG_CONFIG_HOME/offsettui/config.yaml) with the\n" +
			"client properties each uses, every secret masked (password=***) (docs/connect.md).",
		examples: "  offsettui contexts\n  offsettui contexts --config ./team-clusters.yaml -o json",
	},
	"demo": {
		usage: "offsettui demo [--debug FILE]",
		about: "Runs the embedded three-broker demo cluster (docs/demo.md), prints its bootstrap address and\n" +
			"keeps it running until Ctrl-C, so other tools can be pointed at it.",
		examples: "  offsettui demo\n" +
			"  " + demoKcatExample + "   # kcat once the demo runs; Ctrl-C stops both",
	},
}

// demoKcatExample points kcat at the demo as soon as it prints its address. The
// demo runs until Ctrl-C, so "$(offsettui demo | head -1)" never returns: the
// shell waits for the whole pipe.
const demoKcatExample = `offsettui demo 2>/dev/null | { read -r addr; kcat -b "$addr" -L; }`

// printCommandHelp writes a command's usage, what it does, its flags and examples.
func printCommandHelp(w io.Writer, fs *pflag.FlagSet) {
	h, ok := commandHelp[fs.Name()]
	if !ok {
		h = cmdHelp{usage: "offsettui " + fs.Name() + " [flags]"}
	}
	if fs.Name() == "offsettui" {
		fmt.Fprint(w, usage+"\n")
	}
	fmt.Fprintf(w, "Usage: %s\n\n", h.usage)
	if h.about != "" {
		fmt.Fprintf(w, "%s\n\n", h.about)
	}
	fmt.Fprintf(w, "Flags:\n%s\n", flagUsages(fs))
	if h.examples != "" {
		fmt.Fprintf(w, "Examples:\n%s\n", strings.TrimRight(h.examples, "\n")+"\n")
	}
}

// versionText is the version the binary was built as, from its build info:
// the module version (a tag with go install, "(devel)" in a clone), the Go
// version and the commit.
func versionText() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "offsettui (no build info)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(unknown version)"
	}
	parts := []string{"offsettui", v, info.GoVersion}
	var rev, at, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = " (modified)"
			}
		}
	}
	if rev != "" {
		parts = append(parts, "commit "+rev[:min(12, len(rev))]+dirty)
	}
	if at != "" {
		parts = append(parts, at)
	}
	return strings.Join(parts, " ")
}

// flagUsages lists the flags one a line: "--name VALUE  usage (default d)".
// (pflag's own listing writes "[=true|false]" after every switch.)
func flagUsages(fs *pflag.FlagSet) string {
	type row struct{ left, usage string }
	var rows []row
	width := 0
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name, text := valueName(f)
		left := "      --" + f.Name
		if f.Shorthand != "" {
			left = "  -" + f.Shorthand + ", --" + f.Name
		}
		if name != "" {
			left += " " + name
		}
		if d := f.DefValue; d != "" && d != "false" && d != "[]" && d != "0" {
			text += " (default " + d + ")"
		}
		rows = append(rows, row{left, text})
		width = max(width, len(left))
	})
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s  %s\n", width, r.left, r.usage)
	}
	return b.String()
}

// valueName splits a usage "`NAME` text" into the value's name and the text.
func valueName(f *pflag.Flag) (name, text string) {
	if rest, ok := strings.CutPrefix(f.Usage, "`"); ok {
		if name, text, ok := strings.Cut(rest, "` "); ok {
			return name, text
		}
	}
	return "", f.Usage
}
