package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The overview of `offsettui --help` and `offsettui help`: its command lines come from the
// command table (commands.go), its flags from common.register.
const (
	tagline          = "where every Kafka consumer group really stands, and guarded offset resets"
	durationsHelp    = "Durations: 90s, 36h, 10d, 6d23h (Go syntax, d = 24h) or ISO-8601 (PT36H, P3D)."
	overviewExamples = `  offsettui --demo                                   try it without a cluster
  offsettui --bootstrap-server kafka:9092 --read-only
  offsettui --context prod                           a cluster named in the config file
  offsettui describe --bootstrap-server kafka:9092 --group billing -o json
  offsettui reset --bootstrap-server kafka:9092 --group billing --topic orders --by-duration 2h
  offsettui check --bootstrap-server kafka:9092 --group billing --recovery-window P3D`
	overviewEnd = `Exit codes and every flag: docs/cli.md; contexts and client properties: docs/connect.md. Run "offsettui help COMMAND" for a command's own flags.`
)

// synopsisAnnotation holds a command's line in the overview when it is not
// "offsettui NAME [flags]" (the root, version).
const synopsisAnnotation = "offsettui/synopsis"

// overview is what `offsettui help` prints: the commands one a line, the flags every
// command takes, durations and examples.
func overview(root *cobra.Command) string {
	var b strings.Builder
	fmt.Fprintf(&b, "offsettui: %s.\n\nUsage:\n", tagline)
	for _, c := range append([]*cobra.Command{root}, userCommands(root)...) {
		fmt.Fprintf(&b, "  %-30s %s\n", synopsis(c), c.Short)
	}
	var shared common
	fs := pflag.NewFlagSet("shared", pflag.ContinueOnError)
	shared.register(fs)
	fmt.Fprintf(&b, "\nFlags every command takes (describe's -o takes markdown too; the TUI takes no -o):\n%s\n%s\n\nExamples:\n%s\n\n%s\n",
		flagUsages(fs), durationsHelp, overviewExamples, overviewEnd)
	return b.String()
}

// synopsis is how the overview names a command: "offsettui describe [flags]".
func synopsis(c *cobra.Command) string {
	if s, ok := c.Annotations[synopsisAnnotation]; ok {
		return s
	}
	if c.HasAvailableFlags() {
		return "offsettui " + c.Name() + " [flags]"
	}
	return c.UseLine()
}

// printCommandHelp writes a command's usage, what it does, its flags and examples; the
// root's help starts with the overview.
func printCommandHelp(w io.Writer, cmd *cobra.Command) {
	if !cmd.HasParent() {
		fmt.Fprint(w, overview(cmd)+"\n")
	}
	fmt.Fprintf(w, "Usage: %s\n\n", cmd.UseLine())
	if cmd.Long != "" {
		fmt.Fprintf(w, "%s\n\n", cmd.Long)
	}
	if flags := flagUsages(cmd.Flags()); flags != "" {
		fmt.Fprintf(w, "Flags:\n%s\n", flags)
	}
	if cmd.Example != "" {
		fmt.Fprintf(w, "Examples:\n%s\n", strings.TrimRight(cmd.Example, "\n")+"\n")
	}
}

// newHelpCmd is `offsettui help [COMMAND]`: the overview, or a command's own help,
// exactly as `COMMAND --help` prints it.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [COMMAND]",
		Short: "this text, or a command's flags and examples",
		Long:  "Prints the usage: the commands, the flags every command takes and examples; with a command, its own flags and examples.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return badInputf("one command at a time, got %q", args)
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			if len(args) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return namesStartingWith(commandNames(cmd.Root()), prefix), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root := cmd.Root()
			if len(args) == 0 || args[0] == "help" {
				fmt.Fprint(cmd.OutOrStdout(), overview(root))
				return nil
			}
			for _, c := range userCommands(root) {
				if c.Name() == args[0] {
					printCommandHelp(cmd.OutOrStdout(), c)
					return nil
				}
			}
			return badInput(unknownCommandError(root, args[0]))
		},
	}
}

// newVersionCmd is `offsettui version`; run takes `offsettui --version` here too.
func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:         "version",
		Short:       "version and build",
		Long:        "Prints the version, the Go version and the commit it was built from (offsettui --version does the same).",
		Annotations: map[string]string{synopsisAnnotation: "offsettui --version"},
		Args:        cobra.ArbitraryArgs, // as before cobra: what follows is ignored
		RunE: func(cmd *cobra.Command, _ []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), versionText())
			return nil
		},
	}
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
		if d := flagDefault(f); d != "" {
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

// flagDefault is the default the help names: none for off, empty and zero.
func flagDefault(f *pflag.Flag) string {
	switch d := f.DefValue; d {
	case "false", "[]", "0":
		return ""
	default:
		return d
	}
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
