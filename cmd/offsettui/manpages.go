package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/cpuguy83/go-md2man/v2/md2man"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// newGenManCmd is the hidden `offsettui gen-man DIR`: one man page per command
// (offsettui.1, offsettui-describe.1, …) from the command table, with the text --help
// prints, for packages to install. The pages are dated by SOURCE_DATE_EPOCH when it is
// set, and undated otherwise, so that a build writes the same pages each time.
func newGenManCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "gen-man DIR",
		Short:  "write one man page per command into DIR",
		Hidden: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return badInputf("want one directory, got %q", args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			date, err := manDate(os.Getenv("SOURCE_DATE_EPOCH"))
			if err != nil {
				return badInputf("SOURCE_DATE_EPOCH: %v", err)
			}
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return badInput(err)
			}
			for _, c := range manCommands(cmd.Root()) {
				path := filepath.Join(args[0], manName(c)+".1")
				if err := os.WriteFile(path, minusSigns(md2man.Render([]byte(manPage(c, date)))), 0o644); err != nil {
					return failure(err)
				}
			}
			return nil
		},
	}
}

// manDate is the date the pages carry: SOURCE_DATE_EPOCH's (reproducible builds), or none.
func manDate(epoch string) (string, error) {
	if epoch == "" {
		return "", nil
	}
	secs, err := strconv.ParseInt(epoch, 10, 64)
	if err != nil {
		return "", fmt.Errorf("want seconds since 1970, got %q", epoch)
	}
	return time.Unix(secs, 0).UTC().Format("2006-01-02"), nil
}

// manCommands are the commands that get a page: the root and every command a user may type.
func manCommands(root *cobra.Command) []*cobra.Command {
	return append([]*cobra.Command{root}, userCommands(root)...)
}

// manName is a command's page name: offsettui-delete-group.
func manName(c *cobra.Command) string { return strings.ReplaceAll(c.CommandPath(), " ", "-") }

// manPage is a command's page in go-md2man's Markdown: the usage, what it does, its flags
// and examples as --help gives them (printCommandHelp), and the other pages.
func manPage(c *cobra.Command, date string) string {
	var b strings.Builder
	name := manName(c)
	fmt.Fprintf(&b, "%% %q %q %q %q %q\n\n", strings.ToUpper(name), "1", date, "offsettui", "offsettui manual")
	what := c.Short
	if !c.HasParent() {
		what = tagline
	}
	fmt.Fprintf(&b, "# NAME\n%s - %s\n\n", name, manEscape(what))
	fmt.Fprintf(&b, "# SYNOPSIS\n```\n%s\n```\n\n", manLines(c.UseLine()))
	if c.Long != "" {
		fmt.Fprintf(&b, "# DESCRIPTION\n%s\n\n", manEscape(c.Long))
	}
	if !c.HasParent() {
		b.WriteString("# COMMANDS\n")
		for _, sub := range manCommands(c)[1:] {
			fmt.Fprintf(&b, "**%s(1)**\n: %s\n\n", manName(sub), manEscape(sub.Short))
		}
	}
	var flags strings.Builder
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		value, text := valueName(f)
		term := "**--" + f.Name + "**"
		if f.Shorthand != "" {
			term = "**-" + f.Shorthand + "**, " + term
		}
		if value != "" {
			term += " *" + manEscape(value) + "*"
		}
		if d := flagDefault(f); d != "" {
			text += " (default " + d + ")"
		}
		fmt.Fprintf(&flags, "%s\n: %s\n\n", term, manEscape(text))
	})
	if flags.Len() > 0 {
		b.WriteString("# OPTIONS\n" + flags.String())
	}
	if c.Example != "" {
		fmt.Fprintf(&b, "# EXAMPLES\n```\n%s\n```\n\n", manLines(c.Example))
	}
	b.WriteString("# SEE ALSO\n")
	var also []string
	for _, other := range manCommands(c.Root()) {
		if other != c {
			also = append(also, "**"+manName(other)+"(1)**")
		}
	}
	b.WriteString(strings.Join(also, ", ") + "; docs/cli.md in the source.\n")
	return b.String()
}

// minusSigns writes every hyphen of the text lines as roff's minus sign (\-): man
// prints a bare - as a typographic hyphen on UTF-8 terminals, and a flag or an example
// copied from the page would not run.
func minusSigns(roff []byte) []byte {
	lines := strings.Split(string(roff), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") { // a request (.TH, .SH, …), not text
			continue
		}
		l = strings.ReplaceAll(l, `\-`, "\x00")
		l = strings.ReplaceAll(l, "-", `\-`)
		lines[i] = strings.ReplaceAll(l, "\x00", `\-`)
	}
	return []byte(strings.Join(lines, "\n"))
}

// manLines is text for a preformatted block: each line without its indent.
func manLines(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "\n")
}

// manEscape keeps Markdown from reading help text as markup (__consumer_offsets,
// password=***, [flags]).
func manEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
