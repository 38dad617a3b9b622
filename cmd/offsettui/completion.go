package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Shell completion (docs/cli.md#completion): `offsettui completion SHELL` prints cobra's
// script for the shell, which asks `offsettui __complete ARGS…` for the candidates.
// Commands and flag names complete from the command table; flag values as
// registerCompletions says.

// completionShells are the shells `offsettui completion` writes a script for.
var completionShells = []string{"bash", "zsh", "fish", "powershell"}

// completionDeadline bounds a completion that asks the cluster: past it, nothing is offered.
const completionDeadline = time.Second

// valuesAnnotation lists the values a flag takes, where it is registered (offerValues).
const valuesAnnotation = "offsettui/values"

// offerValues declares the values flag name takes, for its completion.
func offerValues(fs *pflag.FlagSet, name string, values ...string) {
	_ = fs.SetAnnotation(name, valuesAnnotation, values)
}

// newCompletionCmd is `offsettui completion bash|zsh|fish|powershell`.
func newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "print the shell completion script",
		Long: "Prints the script that completes offsettui's commands, flags and flag values in the shell named:\n" +
			"strategies, output formats and --assume-reset values as typed; --group and --topic with the\n" +
			"cluster's groups and topics (the cluster the flags typed so far name, asked within a second:\n" +
			"nothing is offered when it does not answer), --context with the config file's contexts.",
		Example: "  source <(offsettui completion bash)                  # this shell; add it to ~/.bashrc for every one\n" +
			"  offsettui completion zsh > \"${fpath[1]}/_offsettui\"   # then start a new zsh\n" +
			"  offsettui completion fish > ~/.config/fish/completions/offsettui.fish\n" +
			"  offsettui completion powershell | Out-String | Invoke-Expression",
		ValidArgs:   completionShells,
		Annotations: map[string]string{synopsisAnnotation: "offsettui completion SHELL"},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 || !slices.Contains(completionShells, args[0]) {
				return badInputf("name one shell: %s; got %q", orList(completionShells), args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			root, out := cmd.Root(), cmd.OutOrStdout()
			var err error
			switch args[0] {
			case "bash":
				err = root.GenBashCompletionV2(out, true)
			case "zsh":
				err = root.GenZshCompletion(out)
			case "fish":
				err = root.GenFishCompletion(out, true)
			case "powershell":
				err = root.GenPowerShellCompletionWithDesc(out)
			}
			if err != nil {
				return failure(fmt.Errorf("write the script: %w", err))
			}
			return nil
		},
	}
}

// isCompletionRequest says whether args ask cobra for completions (the scripts call
// `offsettui __complete ARGS…`).
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registerCompletions gives every flag of every command its value completion, decided by
// what the flag is:
//   - values declared where it is registered (offerValues), or named in its value name
//     (`earliest|latest|none`);
//   - --group, --from-group: the cluster's groups; --topic: its topics; --context: the
//     config file's contexts;
//   - a FILE, CSV or BACKUP: files; a DIR: directories; any other value: nothing.
//
// Only a completion request registers them (cobra keeps them in a table of its own for
// the life of the process), and only then are the flags' usages cut to their text.
func registerCompletions(root *cobra.Command) {
	cmds := []*cobra.Command{root}
	for len(cmds) > 0 {
		cmd := cmds[0]
		cmds = append(cmds[1:], cmd.Commands()...)
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if fn := flagCompletion(f); fn != nil {
				_ = cmd.RegisterFlagCompletionFunc(f.Name, fn)
			}
			// A flag's description in the shell is its help's text column (the value's
			// name is what is being completed).
			_, f.Usage = valueName(f)
		})
	}
}

// flagCompletion is how f's value completes; nil for a flag without a value, and for
// files, which the shells complete by default.
func flagCompletion(f *pflag.Flag) cobra.CompletionFunc {
	if f.NoOptDefVal != "" { // a switch
		return nil
	}
	name, _ := valueName(f)
	values := f.Annotations[valuesAnnotation]
	if len(values) == 0 && strings.Contains(name, "|") {
		values = strings.Split(name, "|")
	}
	switch {
	case len(values) > 0:
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	case f.Name == "group" || f.Name == "from-group":
		return func(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return namesStartingWith(clusterNames(cmd, demo.GroupNames, (*kafka.Client).GroupNames), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	case f.Name == "topic":
		return func(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return namesStartingWith(clusterNames(cmd, demo.TopicNames, (*kafka.Client).TopicNames), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	case f.Name == "context":
		return func(cmd *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return namesStartingWith(contextNames(cmd), prefix), cobra.ShellCompDirectiveNoFileComp
		}
	case name == "FILE" || name == "CSV" || name == "BACKUP":
		return nil
	case name == "DIR":
		return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		}
	}
	return cobra.NoFileCompletions
}

// namesStartingWith keeps the names that start with prefix.
func namesStartingWith(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

// completionSettings are the connection flags typed so far on cmd's line: the cluster a
// completion asks. Notes and warnings are dropped, and no debug log is opened.
func completionSettings(cmd *cobra.Command) common {
	fs := cmd.Flags()
	str := func(name string) string {
		f := fs.Lookup(name)
		switch {
		case f == nil:
			return ""
		case f.Value.Type() == "stringArray": // serve's --context: the first cluster
			if vals := f.Value.(pflag.SliceValue).GetSlice(); len(vals) > 0 {
				return vals[0]
			}
			return ""
		}
		return f.Value.String()
	}
	c := common{bootstrap: str("bootstrap-server"), commandConfig: str("command-config"), config: str("config"),
		context: str("context"), timeoutD: completionDeadline, stderr: io.Discard}
	c.demo, _ = fs.GetBool("demo")
	return c
}

// clusterNames asks the cluster that cmd's flags name for names (groups, topics) within
// completionDeadline; nil when it cannot be asked or does not answer in time. With --demo
// the demo's scenario says them, without starting a cluster.
func clusterNames(cmd *cobra.Command, onDemo func() []string, list func(*kafka.Client, context.Context) ([]string, error)) []string {
	c := completionSettings(cmd)
	if c.demo {
		return onDemo()
	}
	ctx, cancel := context.WithTimeout(cmd.Context(), completionDeadline)
	defer cancel()
	got := make(chan []string, 1)
	go func() { // left behind when the deadline passes first: the process ends right after
		s, err := c.connect(ctx)
		if err != nil {
			got <- nil
			return
		}
		defer s.close()
		names, _ := list(s.client, ctx)
		got <- names
	}()
	select {
	case names := <-got:
		return names
	case <-ctx.Done():
		return nil
	}
}

// contextNames names the contexts of the config file cmd's flags name; nil without one.
func contextNames(cmd *cobra.Command) []string {
	c := completionSettings(cmd)
	file, err := c.loadConfig(io.Discard)
	if err != nil || file == nil {
		return nil
	}
	names := make([]string, len(file.Contexts))
	for i, ctx := range file.Contexts {
		names[i] = ctx.Name
	}
	return names
}
