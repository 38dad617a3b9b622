package views

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// globalKeys work on every screen unless a text input has the keyboard.
// ForceQuit works even then, except while a reset is being written.
type globalKeys struct {
	Quit, ForceQuit, Help, Command, Refresh, Back key.Binding
	// PromptRun and PromptCancel act while the `:` prompt has the keyboard.
	PromptRun, PromptCancel key.Binding
}

func newGlobalKeys() globalKeys {
	return globalKeys{
		Quit:      key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "quit")),
		ForceQuit: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "quit")),
		Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Command:   key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Refresh:   key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Back:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		PromptRun:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		PromptCancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// listKeys move a cursor through a table (k9s and vi habits).
type listKeys struct {
	Up, Down, Top, Bottom, PageUp, PageDown key.Binding
}

func newListKeys() listKeys {
	return listKeys{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "bottom")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
	}
}

// all returns the list keys for the full help.
func (k listKeys) all() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}
}

// moveCursor applies a list key to a cursor over n rows shown page rows at a
// time; ok is false when msg is not a list key.
func (k listKeys) moveCursor(msg tea.KeyMsg, cursor, n, page int) (next int, ok bool) {
	page = max(1, page)
	switch {
	case key.Matches(msg, k.Up):
		cursor--
	case key.Matches(msg, k.Down):
		cursor++
	case key.Matches(msg, k.Top):
		cursor = 0
	case key.Matches(msg, k.Bottom):
		cursor = n - 1
	case key.Matches(msg, k.PageUp):
		cursor -= page
	case key.Matches(msg, k.PageDown):
		cursor += page
	default:
		return cursor, false
	}
	return max(0, min(cursor, n-1)), true
}

// filterKeys are the keys of a list with a `/` filter, problems-only and sort.
type filterKeys struct {
	Filter, ClearFilter, Problems, SortNext, SortReverse key.Binding
	// FilterApply and FilterCancel act while the filter input has the keyboard.
	FilterApply, FilterCancel key.Binding
}

func newFilterKeys() filterKeys {
	return filterKeys{
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		ClearFilter:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Problems:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "problems")),
		SortNext:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort")),
		SortReverse:  key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		FilterApply:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		FilterCancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
	}
}

// groupsKeys are the groups screen's own keys.
type groupsKeys struct {
	listKeys
	filterKeys
	Open key.Binding
	// Report writes the Markdown incident report of the groups listed;
	// disabled without a report writer.
	Report key.Binding
}

func newGroupsKeys() groupsKeys {
	return groupsKeys{
		listKeys:   newListKeys(),
		filterKeys: newFilterKeys(),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Report:     newReportKey(),
	}
}

// newReportKey is w, which writes the Markdown incident report.
func newReportKey() key.Binding {
	return key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "write report"))
}

// groupKeys are the group screen's own keys.
type groupKeys struct {
	listKeys
	filterKeys
	// Plan opens the reset planner, Mark selects partitions for it and
	// Restore opens it on a backup; all are disabled until a planner is wired in.
	Plan, Mark, Restore key.Binding
	// Report writes the group's Markdown incident report.
	Report key.Binding
}

func newGroupKeys(planner bool) groupKeys {
	k := groupKeys{
		listKeys:   newListKeys(),
		filterKeys: newFilterKeys(),
		Plan:       key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "plan a reset")),
		Mark:       key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark")),
		Restore:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "restore a backup")),
		Report:     newReportKey(),
	}
	k.Plan.SetEnabled(planner)
	k.Mark.SetEnabled(planner)
	k.Restore.SetEnabled(planner)
	return k
}

// plannerKeys are the reset planner's keys. No single key writes anything:
// Arm asks for the group name, and only Confirm with the exact name executes.
type plannerKeys struct {
	// NextField and PrevField move between strategy, value and scope.
	NextField, PrevField key.Binding
	// Choose and ChooseNext cycle the strategy or scope under focus.
	Choose, ChooseNext key.Binding
	// LeaveField gives the keyboard back while the value field has it.
	LeaveField key.Binding
	// ScrollUp and ScrollDown page the plan table.
	ScrollUp, ScrollDown key.Binding
	// Arm asks for the group name; Confirm executes when the name matches;
	// Disarm cancels.
	Arm, Confirm, Disarm key.Binding
	// AllowCommitter overrides the committer guard for this screen's plans, and back
	// (docs/resets.md#committers-outside-the-group).
	AllowCommitter key.Binding
	// AssumeReset switches the auto.offset.reset the plan's counts assume: latest,
	// earliest, none (plan.Plan.WithAssumeReset).
	AssumeReset key.Binding
	// CancelQuit, while a reset still watches before its backup, cancels it and quits once
	// its result is in (q; esc cancels and stays).
	CancelQuit key.Binding
	// Scroll moves through a result taller than the screen.
	Scroll listKeys
	// SourcePrev and SourceNext move the highlight through the source groups of a copy
	// (--from-group) while its field has the keyboard.
	SourcePrev, SourceNext key.Binding
}

func newPlannerKeys() plannerKeys {
	return plannerKeys{
		NextField:  key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/↓", "next field")),
		PrevField:  key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/↑", "previous field")),
		Choose:     key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←/→", "choose")),
		ChooseNext: key.NewBinding(key.WithKeys("right", "l"), key.WithHelp("→/l", "next choice")),
		LeaveField: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "leave the field")),
		ScrollUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "scroll the plan up")),
		ScrollDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "scroll the plan")),
		Arm:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "arm")),
		Confirm:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "execute if the name matches")),
		Disarm:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "disarm")),
		AllowCommitter: key.NewBinding(key.WithKeys("!"),
			key.WithHelp("!", "override the committer guard (a consumer outside the group may overwrite the write)")),
		AssumeReset: key.NewBinding(key.WithKeys("a"),
			key.WithHelp("a", "switch the auto.offset.reset the counts assume (latest, earliest, none)")),
		CancelQuit: key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "cancel the reset and quit")),
		Scroll:     newListKeys(),
		SourcePrev: key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "previous source group")),
		SourceNext: key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↑/↓", "choose the source group")),
	}
}

// described returns a copy of b with a longer description, for the full help.
func described(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// helpKeys close the help screen.
type helpKeys struct {
	Close key.Binding
}

func newHelpKeys() helpKeys {
	return helpKeys{Close: key.NewBinding(key.WithKeys("esc", "?"), key.WithHelp("esc/?", "close help"))}
}
