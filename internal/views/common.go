package views

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// common holds what every screen shares: theme, clock and settings. Sizes are
// not here: the root measures its chrome and calls SetSize on each screen.
type common struct {
	styles     *styles
	now        func() time.Time
	readOnly   bool
	riskWindow time.Duration
	// demo is set under --demo: the cluster lives only as long as the process.
	demo bool
	// timeOpt tunes the evaluation of the time axis (--stall-after).
	timeOpt model.TimeOptions
	// reports is set when w can write the Markdown incident report.
	reports bool
}

// screen is the contract of one screen (soft-serve's component): a tea.Model
// that also describes its keys and can be resized.
type screen interface {
	tea.Model
	// ShortHelp and FullHelp make a screen a help.KeyMap.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// SetSize gives the screen the body area, chrome already subtracted.
	SetSize(width, height int)
	// Crumb is the screen's name in the header crumbs ("groups", "fanout").
	Crumb() string
	// Capturing reports that a text input has the keyboard, so that global
	// keys (q, ?, :, r, esc) go to the screen instead.
	Capturing() bool
}

// dataAppliedMsg tells every screen on the stack that the data changed. The
// snapshot is never mutated after it is sent; a merge makes a new one.
type dataAppliedMsg struct {
	snap *model.Snapshot
	hist *lagHistory
	// detailed holds when the committed-record timestamps of a group were read,
	// for the groups whose current data includes them.
	detailed map[string]time.Time
	// fetching names the group whose timestamps are being read, if any.
	fetching string
	// detailErr holds why a group's timestamps could not be read.
	detailErr map[string]error
	// axis is the time axis' history (read-only for screens, in Update).
	axis *model.History
}

// groupChosenMsg asks the root to open a group's screen.
type groupChosenMsg struct{ group string }

// planRequestedMsg asks the root to open the reset planner for a group, with
// what the group screen had selected: the cursor row's topic and the marked
// partitions. The root forwards it to the planner once pushed.
type planRequestedMsg struct {
	group  string
	topic  string
	marked []model.TP
}

// offsetsChangedMsg tells the root that a reset wrote offsets: refresh now.
type offsetsChangedMsg struct{}

// clockTickedMsg recomputes time-dependent text and checks whether a refresh is due.
type clockTickedMsg struct{}
