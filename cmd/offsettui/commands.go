package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The command table is cobra's tree, built here: every command with its usage, help,
// examples and flags comes from its constructor (newDescribeCmd in describe.go, …), and
// --help, `offsettui help`, the unknown-command message, completions and man pages are
// all read from the tree.

func init() {
	// The commands are listed in the order of the table below, not alphabetically.
	cobra.EnableCommandSorting = false
}

// newRootCmd builds the command tree: the TUI at its root, then each command.
func newRootCmd() *cobra.Command {
	root := newTUICmd()
	root.AddCommand(
		newDescribeCmd(),
		newResetCmd(),
		newDeleteOffsetsCmd(),
		newDeleteGroupCmd(),
		newApplyCmd(),
		newBackupCmd(),
		newCheckCmd(),
		newServeCmd(),
		newMCPCmd(),
		newDemoCmd(),
		newContextsCmd(),
		newCompletionCmd(),
		newVersionCmd(),
		newGenManCmd(),
	)
	root.SetHelpCommand(newHelpCmd())
	root.InitDefaultHelpCmd()
	root.SilenceErrors, root.SilenceUsage = true, true // run says errors, once (exitcodes.go)
	root.CompletionOptions.DisableDefaultCmd = true    // completion.go's command replaces it
	root.Args = unknownCommand
	root.SuggestionsMinimumDistance = 2 // "desribe" is one edit from describe
	root.SetHelpFunc(func(cmd *cobra.Command, _ []string) { printCommandHelp(cmd.OutOrStdout(), cmd) })
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return badInputf("%v (%s --help lists the flags)", err, cmd.CommandPath())
	})
	for _, cmd := range append(root.Commands(), root) {
		// The usage lines are written whole in each command's Use.
		cmd.DisableFlagsInUseLine = true
		// -h and --help print the help (cobra acts on the flag); it is not listed among
		// the command's flags.
		cmd.Flags().BoolP("help", "h", false, "print this help")
		_ = cmd.Flags().MarkHidden("help")
		if cmd.Args == nil {
			cmd.Args = noArguments
		}
	}
	return root
}

// noArguments refuses what is not a flag, as every command but help, completion and gen-man
// takes none.
func noArguments(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return badInputf("unexpected argument %q (%s --help lists the flags)", args[0], cmd.CommandPath())
	}
	return nil
}

// unknownCommand is the root's answer to a word that names no command: one line that
// suggests the closest command and names them all (docs/cli.md).
func unknownCommand(root *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return badInput(unknownCommandError(root, args[0]))
}

// unknownCommandError says that name is no command, suggests the closest ones and lists
// the commands.
func unknownCommandError(root *cobra.Command, name string) error {
	hint := ""
	if near := root.SuggestionsFor(name); len(near) > 0 {
		hint = " (did you mean " + orList(near) + "?)"
	}
	return fmt.Errorf("unknown command %q%s; the commands are %s; without one, the TUI (offsettui --help shows the usage)",
		name, hint, andList(commandNames(root)))
}

// userCommands are the commands a user may type, in the table's order: all but the
// hidden ones (gen-man, cobra's __complete). cobra counts help as unavailable: it is not.
func userCommands(root *cobra.Command) []*cobra.Command {
	var out []*cobra.Command
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			out = append(out, c)
		}
	}
	return out
}

// commandNames names the commands a user may type, in the table's order.
func commandNames(root *cobra.Command) []string {
	var names []string
	for _, c := range userCommands(root) {
		names = append(names, c.Name())
	}
	return names
}

// andList is "a, b and c".
func andList(items []string) string { return joinLast(items, " and ") }

// orList is "a, b or c".
func orList(items []string) string { return joinLast(items, " or ") }

func joinLast(items []string, last string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}
