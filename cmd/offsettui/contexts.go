package main

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/offsettui/offsettui/internal/contexts"
	"github.com/offsettui/offsettui/internal/kafka/clientconfig"
	"github.com/spf13/cobra"
)

// contextListing is one context as `offsettui contexts -o json` prints it (secrets masked).
type contextListing struct {
	Name             string            `json:"name"`
	Current          bool              `json:"current"`
	Label            string            `json:"label"`
	Color            *string           `json:"color"`
	ReadOnly         bool              `json:"readOnly"`
	BootstrapServers []string          `json:"bootstrapServers"`
	CommandConfig    *string           `json:"commandConfig"`
	Properties       map[string]string `json:"properties"`
	Error            *string           `json:"error"`
}

// newContextsCmd is `offsettui contexts`: the contexts of the config file with their client
// properties, every secret masked (password=***).
func newContextsCmd() *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "contexts [--config FILE] [-o table|json]",
		Short: "list the named clusters of the config file, secrets masked",
		Long: "Lists the contexts of the config file ($XDG_CONFIG_HOME/offsettui/config.yaml) with the\n" +
			"client properties each uses, every secret masked (password=***) (docs/connect.md).",
		Example: "  offsettui contexts\n  offsettui contexts --config ./team-clusters.yaml -o json",
	}
	fs := cmd.Flags()
	fs.StringVar(&c.config, "config", "", "`FILE` the contexts file (default $XDG_CONFIG_HOME/offsettui/config.yaml)")
	fs.StringVarP(&c.output, "output", "o", "table", "`FORMAT` table or json")
	offerValues(fs, "output", "table", "json")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if c.output != "table" && c.output != "json" {
			return badInputf("-o/--output: want table or json, got %q", c.output)
		}
		file, err := c.loadConfig(stderr)
		if err != nil {
			return badInput(err)
		}
		if file == nil {
			return badInputf("no config file at %s (see docs/connect.md)", contexts.DefaultPath(os.Getenv))
		}
		list := listContexts(file, stderr)
		if c.output == "json" {
			err = writeJSON(stdout, map[string]any{"configFile": file.Path, "currentContext": orNull(file.CurrentContext), "contexts": list})
		} else {
			err = printContexts(stdout, list)
		}
		if err != nil {
			return failure(fmt.Errorf("write output: %w", err))
		}
		return nil
	}
	return cmd
}

// listContexts reads each context's client properties (its command-config file, then its
// inline properties) and masks them; a file that cannot be read is that context's error.
func listContexts(file *contexts.File, warn io.Writer) []contextListing {
	list := []contextListing{}
	for _, ctx := range file.Contexts {
		l := contextListing{Name: ctx.Name, Current: ctx.Name == file.CurrentContext, Label: ctx.Label, Color: orNull(ctx.Color),
			ReadOnly: ctx.ReadOnly, BootstrapServers: ctx.BootstrapServers, CommandConfig: orNull(ctx.CommandConfig), Properties: map[string]string{}}
		if l.BootstrapServers == nil {
			l.BootstrapServers = []string{}
		}
		if ctx.CommandConfig != "" {
			props, err := readProperties(ctx.CommandConfig, warn)
			if err != nil {
				l.Error = orNull(err.Error())
			}
			maps.Copy(l.Properties, props)
		}
		maps.Copy(l.Properties, ctx.Properties)
		l.Properties = clientconfig.RedactedProperties(l.Properties)
		list = append(list, l)
	}
	return list
}

func printContexts(w io.Writer, list []contextListing) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CURRENT\tNAME\tLABEL\tCOLOR\tREAD-ONLY\tBOOTSTRAP")
	for _, l := range list {
		current, ro, color, boot := "", "no", "-", strings.Join(l.BootstrapServers, ",")
		if l.Current {
			current = "*"
		}
		if l.ReadOnly {
			ro = "yes"
		}
		if l.Color != nil {
			color = *l.Color
		}
		if boot == "" {
			boot = "(bootstrap.servers of its properties)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", current, l.Name, l.Label, color, ro, boot)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, l := range list {
		if len(l.Properties) == 0 && l.CommandConfig == nil && l.Error == nil {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", l.Name)
		if l.CommandConfig != nil {
			fmt.Fprintf(w, "  command-config: %s\n", *l.CommandConfig)
		}
		if l.Error != nil {
			fmt.Fprintf(w, "  error: %s\n", *l.Error)
		}
		for _, k := range slices.Sorted(maps.Keys(l.Properties)) {
			fmt.Fprintf(w, "  %s=%s\n", k, l.Properties[k])
		}
	}
	return nil
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
