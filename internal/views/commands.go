package views

import (
	"fmt"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/text"
)

// command is one `:` command of the prompt.
//
// To add a command (as :ctx is added), append it in builtinCommands:
// its names (the first is the one help shows), the name of its argument if
// it takes one, a line of help, when it is offered (nil: always), and what it
// does. The prompt, the help screen and the unknown-command hint all read
// this one list.
type command struct {
	names   []string
	arg     string
	help    string
	enabled func(m *app) bool
	run     func(m *app, arg string) tea.Cmd
}

func builtinCommands() []command {
	return []command{
		{names: []string{"groups", "gr"}, help: "back to the groups list", run: func(m *app, _ string) tea.Cmd {
			for len(m.stack) > 1 {
				m.pop()
			}
			return m.maybeRefresh()
		}},
		{names: []string{"group", "g"}, arg: "NAME", help: "open a group by name (or the one name containing it)",
			run: (*app).openGroupNamed},
		{names: []string{"help", "h"}, help: "every key of this screen", run: func(m *app, _ string) tea.Cmd {
			m.openHelp()
			return nil
		}},
		{names: []string{"quit", "q", "q!", "qa"}, help: "quit (not while a reset is written)", run: func(m *app, _ string) tea.Cmd {
			return m.quit()
		}},
		contextCommandDef(),
	}
}

// enabledCommands are the commands offered now.
func (m *app) enabledCommands() []command {
	var out []command
	for _, c := range m.cmds {
		if c.enabled == nil || c.enabled(m) {
			out = append(out, c)
		}
	}
	return out
}

// runCommand runs what was typed after `:`.
func (m *app) runCommand(line string) tea.Cmd {
	if line == "" {
		return nil
	}
	name, arg, _ := strings.Cut(line, " ")
	arg = strings.TrimSpace(arg)
	for _, c := range m.enabledCommands() {
		for _, n := range c.names {
			if n != name {
				continue
			}
			if c.arg == "" && arg != "" {
				m.setFlash(":" + name + " takes no argument")
				return nil
			}
			return c.run(m, arg)
		}
	}
	var known []string
	for _, c := range m.enabledCommands() {
		known = append(known, commandUsage(c))
	}
	m.setFlash("unknown command :" + name + " (try " + strings.Join(known, ", ") + ")")
	return nil
}

// maxNamedMatches bounds how many groups :group names when several match.
const maxNamedMatches = 5

// namesList is names sorted, the first n joined with commas, and "+k more" for the rest.
func namesList(names []string, n int) string {
	names = slices.Sorted(slices.Values(names))
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(", +%d more", len(names)-n)
}

// commandUsage is how help names a command: ":group NAME".
func commandUsage(c command) string {
	u := ":" + c.names[0]
	if c.arg != "" {
		u += " " + c.arg
	}
	return u
}

// openGroupNamed is :group NAME: the group of that exact name, else the only
// one whose name contains it (case-insensitive). It opens from the groups list.
func (m *app) openGroupNamed(name string) tea.Cmd {
	if name == "" {
		m.setFlash("usage: :group NAME")
		return nil
	}
	if m.snap == nil {
		m.setFlash("no snapshot yet: try :group " + name + " once the groups are shown")
		return nil
	}
	var found []string
	for _, g := range m.snap.Groups {
		if g.Group == name {
			found = []string{g.Group}
			break
		}
		if strings.Contains(strings.ToLower(g.Group), strings.ToLower(name)) {
			found = append(found, g.Group)
		}
	}
	switch len(found) {
	case 0:
		m.setFlash("no group named " + name + " in the latest snapshot")
		return nil
	case 1:
	default:
		m.setFlash(text.Plural(len(found), "group") + " match " + name + ": " + namesList(found, maxNamedMatches) +
			" — type the whole name, or /" + name + " filters them")
		return nil
	}
	for len(m.stack) > 1 {
		m.pop()
	}
	return m.apply(groupChosenMsg{group: found[0]})
}
