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
	"github.com/spf13/pflag"
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

// contextsMain lists the contexts of the config file with their client properties, every
// secret masked (password=***).
func contextsMain(args []string, stdout, stderr io.Writer) int {
	var c common
	fs := pflag.NewFlagSet("contexts", pflag.ContinueOnError)
	fs.StringVar(&c.config, "config", "", "`FILE` the contexts file (default $XDG_CONFIG_HOME/offsettui/config.yaml)")
	fs.StringVarP(&c.output, "output", "o", "table", "`FORMAT` table or json")
	if done, code := parseOnly(fs, args, stdout, stderr); done {
		return code
	}
	if c.output != "table" && c.output != "json" {
		fmt.Fprintf(stderr, "offsettui contexts: -o/--output: want table or json, got %q\n", c.output)
		return exitBadInput
	}
	file, err := c.loadConfig(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "offsettui contexts: %v\n", err)
		return exitBadInput
	}
	if file == nil {
		fmt.Fprintf(stderr, "offsettui contexts: no config file at %s (see docs/connect.md)\n", contexts.DefaultPath(os.Getenv))
		return exitBadInput
	}
	list := listContexts(file, stderr)
	if c.output == "json" {
		err = writeJSON(stdout, map[string]any{"configFile": file.Path, "currentContext": orNull(file.CurrentContext), "contexts": list})
	} else {
		err = printContexts(stdout, list)
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui contexts: write output: %v\n", err)
		return exitFailure
	}
	return exitOK
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
