package views

import (
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
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
	// post hands the root a request (open a group, open the planner, a
	// flash) that it carries out synchronously, right after the screen's
	// Update returns: the next key of a burst already sees the new screen.
	post func(msg tea.Msg)
	// lastID numbers the screens; see nextID.
	lastID int
	// timeOpt tunes the evaluation of the time axis (--stall-after).
	timeOpt timeaxis.Options
	// reports is set when w can write the Markdown incident report; reportDir is where
	// reports and the planner's plan files go ("" = the working directory).
	reports   bool
	reportDir string
	// commitLog: Options.CommitLog.
	commitLog model.Query
}

// nextID returns a new screen id. A screen tags its async replies with it
// (screenMsg) so that they reach it wherever it is on the stack.
func (c *common) nextID() int {
	c.lastID++
	return c.lastID
}

// screen is the contract of one screen (soft-serve's component): a tea.Model
// that also describes its keys and can be resized.
type screen interface {
	tea.Model
	// ID is the screen's id (common.nextID): replies addressed to it
	// (screenMsg) and flashes it raised belong to it.
	ID() int
	// ShortHelp and FullHelp make a screen a help.KeyMap.
	ShortHelp() []key.Binding
	FullHelp() [][]key.Binding
	// Notes are lines the help screen shows under the screen's keys (what
	// the filter matches); nil for none.
	Notes() []string
	// Columns are the columns of the screen's table, each with its meaning
	// (columnhelp.go), for the help screen; nil for none.
	Columns() []columnNote
	// SetSize gives the screen the body area, chrome already subtracted.
	SetSize(width, height int)
	// Crumb is the screen's name in the header crumbs ("groups", "fanout").
	Crumb() string
	// Capturing reports that a text input has the keyboard, so that global
	// keys (q, ?, :, r, esc) go to the screen instead.
	Capturing() bool
	// Back is esc: the screen undoes its own state (clears its filter) and
	// reports true, or reports false and the root goes back a screen.
	Back() bool
	// Busy says why the screen must not be left or the program quit now (a
	// reset being written), or "".
	Busy() string
	// Cancel stops what the screen is doing that can still stop without harm (a reset
	// watching the group before its backup: nothing written yet), and reports whether it
	// did; its result comes as usual.
	Cancel() bool
	// Group names the group the screen is about, or "": the root reads that
	// group's details (committed-record timestamps) while it is open.
	Group() string
}

// screenMsg carries an async reply to the screen that asked for it: the root
// delivers it to the screen with that id wherever it is on the stack (under
// help, under a prompt), and drops it when the screen is gone (gh-dash's
// section messages).
type screenMsg struct {
	to  int
	msg tea.Msg
}

// replyTo wraps a command's reply for screen id.
func replyTo(id int, cmd func() tea.Msg) tea.Cmd {
	return func() tea.Msg { return screenMsg{to: id, msg: cmd()} }
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
	// axis is the time axis' history: screens read it in Update only.
	axis *timeAxis
}

// groupChosenMsg asks the root to open a group's screen (posted).
type groupChosenMsg struct{ group string }

// planRequestedMsg asks the root to open the reset planner for a group, with
// what the group screen had selected: the cursor row's topic and the marked
// partitions (posted). The root forwards it to the planner once pushed.
type planRequestedMsg struct {
	group string
	topic string
	// uncommitted: the selected row has no commit; the first scope is then its whole topic,
	// so that the partition R was pressed on is in the plan.
	uncommitted bool
	marked      []model.TP
	// cursor is the row R was pressed on: with marks that leave it out, the scope says so.
	cursor *model.TP
	// restore opens the planner on restoring a backup of the group.
	restore bool
}

// resetFinishedMsg tells the root that a reset was executed (posted): it refreshes
// and keeps the result for the notes printed after exit.
type resetFinishedMsg struct{ res plan.ResetResult }

// flashRaisedMsg asks the root to show a flash for screen from (posted).
type flashRaisedMsg struct {
	from int
	text string
}

// clockTickedMsg recomputes time-dependent text and checks whether a refresh is due.
type clockTickedMsg struct{}
