package views

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/text"
)

// The planner's form: which strategies it offers, what each one's value looks
// like, and which scopes the group screen's selection allows.

// plannerKinds are the strategies the planner offers, in the order ←/→ walks
// them; from-group copies another group's positions, restore puts one of the group's
// backups back, and the last two are the delete-offsets and delete-group commands
// (planner_ops.go).
var plannerKinds = []plan.StrategyKind{
	plan.ToEarliest, plan.ToLatest, plan.ToCurrent, plan.ToOffset,
	plan.ShiftBy, plan.ToDatetime, plan.ByDuration, plan.FromFile, plan.FromGroup, plan.Restore,
	plan.DeleteOffsets, plan.DeleteGroup,
}

// defaultKind moves nothing: the first plan shows where the group stands and
// what the guards say before any target is chosen.
const defaultKind = plan.ToCurrent

// valueExample is the value field's placeholder for a strategy.
var valueExample = map[plan.StrategyKind]string{
	plan.ToOffset:   "N, e.g. 1200",
	plan.ShiftBy:    "N, e.g. -3",
	plan.ToDatetime: "2026-11-29T08:00:00.000",
	plan.ByDuration: "PT2H, 2h or P1D",
	plan.FromFile:   "path/to/offsets.csv",
	plan.FromGroup:  "type a part of its name",
	plan.Restore:    "no backup of this group",
}

// errNoValue marks a value field left empty: a hint, not an error in red.
var errNoValue = errors.New("no value yet")

// parseInputs validates the form as typed. File strategies are only checked for
// a path here; the file is read with the plan, in its tea.Cmd.
func parseInputs(kind plan.StrategyKind, value string, now time.Time) (plan.Strategy, error) {
	switch kind {
	case plan.DeleteOffsets:
		return plan.DeleteOffsetsStrategy(), nil
	case plan.DeleteGroup:
		return plan.DeleteGroupStrategy(), nil
	}
	if kind.TakesValue() && strings.TrimSpace(value) == "" {
		return plan.Strategy{Kind: kind}, errNoValue
	}
	if kind.FromFileKind() {
		return plan.Strategy{Kind: kind, Raw: strings.TrimSpace(value)}, nil
	}
	return plan.ParseStrategy(kind, value, now)
}

// resolvedText names a strategy with the time it resolved to, when it has one:
// what an executed --by-duration actually meant.
func resolvedText(st plan.Strategy) string {
	if (st.Kind == plan.ToDatetime || st.Kind == plan.ByDuration) && !st.Time.IsZero() {
		return st.String() + " (" + st.Time.UTC().Format(model.StampLayout) + ")"
	}
	return st.String()
}

// understood says how a valid value was read, so a time zone or a duration
// cannot be misread silently. typedAt is when the value was parsed: a duration
// counts back from then, not from each re-plan.
func understood(st plan.Strategy, typedAt time.Time) string {
	switch st.Kind {
	case plan.ToDatetime:
		return "the first record at or after " + st.Time.UTC().Format(model.StampLayout)
	case plan.ByDuration:
		return "the first record at or after " + st.Time.UTC().Format(model.StampLayout) +
			" (" + st.Raw + " before " + typedAt.Format("15:04:05") + ", when it was typed)"
	case plan.ToOffset:
		return fmt.Sprintf("offset %s on every partition in scope, clamped to low..high", text.Thousands(st.Offset))
	case plan.ShiftBy:
		if st.Shift < 0 {
			return fmt.Sprintf("committed − %s on every partition in scope: re-reads up to %s each, clamped to low..high",
				text.Thousands(-st.Shift), text.Plural(-st.Shift, "record"))
		}
		return fmt.Sprintf("committed + %s on every partition in scope: skips up to %s each, clamped to low..high",
			text.Thousands(st.Shift), text.Plural(st.Shift, "record"))
	case plan.FromGroup:
		return strings.Replace(st.Kind.Hint(), "SOURCE", st.Raw, 1)
	}
	return st.Kind.Hint()
}

// scopeChoice is one scope the planner offers. id is stable across refreshes
// (labels carry counts that may change); it is part of the inputs' key.
type scopeChoice struct {
	id    string
	label string
	scope plan.Scope
}

// fileScope is the only scope of from-file and restore: the file names the
// partitions.
var fileScope = scopeChoice{id: "file", label: "the partitions the file names"}

// scopeChoices is the form's scopes for the group screen's selection: the marked
// partitions' label says when they leave out the row R was pressed on (docs/tui.md).
func (s *plannerScreen) scopeChoices() []scopeChoice {
	out := scopeChoices(s.g, s.topics, s.selTopic, s.marked)
	if c := s.cursor; c != nil && len(s.marked) > 0 && !slices.Contains(s.marked, *c) {
		out[0].label += "; " + c.String() + ", under the cursor, is not marked"
	}
	return out
}

// scopeChoices lists the scopes, narrowest first: the marked partitions, the
// selected row's topic, the group's other topics, all topics with a commit.
func scopeChoices(g *model.Group, topics map[string]int, selected string, marked []model.TP) []scopeChoice {
	var out []scopeChoice
	if len(marked) > 0 {
		var ts []plan.TopicScope
		for _, tp := range marked {
			if n := len(ts); n > 0 && ts[n-1].Topic == tp.Topic {
				ts[n-1].Partitions = append(ts[n-1].Partitions, tp.Partition)
				continue
			}
			ts = append(ts, plan.TopicScope{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
		}
		out = append(out, scopeChoice{id: "marked",
			label: "marked: " + markedText(marked) + " (" + text.Plural(len(marked), "partition") + ")",
			scope: plan.Scope{Topics: ts}})
	}
	names := []string{}
	if selected != "" {
		names = append(names, selected)
	}
	if g != nil {
		for _, t := range g.Topics() {
			if t != selected {
				names = append(names, t)
			}
		}
	}
	for _, t := range names {
		if t == selected {
			if c, ok := committedOf(g, topics, t); ok {
				out = append(out, c)
			}
		}
		label := "topic " + t
		if n, ok := topics[t]; ok {
			label += " (all " + text.Plural(n, "partition") + ")"
		}
		out = append(out, scopeChoice{id: "topic:" + t, label: label,
			scope: plan.Scope{Topics: []plan.TopicScope{{Topic: t}}}})
	}
	all := "all topics with a commit"
	if g != nil {
		n := 0
		for i := range g.Partitions {
			if g.Partitions[i].Position() != nil {
				n++
			}
		}
		all += " (" + text.Plural(n, "partition") + ")"
		switch g.Type { // what --all-topics means for the type (docs/resets.md)
		case model.TypeShare:
			all = "all partitions with share state (start offset or not)"
		case model.TypeStreams:
			all = "all input topics' partitions with a commit"
		}
	}
	return append(out, scopeChoice{id: "all", label: all, scope: plan.Scope{AllTopics: true}})
}

// backupsListed keeps the group's backups and, when restore is chosen,
// selects the newest.
func (s *plannerScreen) backupsListed(msg backupsListedMsg) tea.Cmd {
	s.backups, s.backupsErr, s.backupsIn = msg.backups, msg.err, true
	if plannerKinds[s.kind] != plan.Restore {
		return nil
	}
	s.chooseBackup(0)
	return s.requestPlan()
}

// chooseBackup moves the backup choice by step (0 keeps it in range) and
// makes it the restore's value.
func (s *plannerScreen) chooseBackup(step int) {
	if len(s.backups) == 0 {
		s.values[plan.Restore] = ""
		return
	}
	s.backup = (s.backup + step + len(s.backups)) % len(s.backups)
	s.values[plan.Restore] = s.backups[s.backup].Path
}

// backupText describes the chosen backup: when it was taken, and which of
// how many it is.
func (s *plannerScreen) backupText() string {
	switch {
	case s.backupsErr != nil:
		return "the backups could not be listed: " + s.backupsErr.Error()
	case !s.backupsIn:
		return "listing this group's backups…"
	case len(s.backups) == 0:
		return "no backup of " + s.group + " (resets write one before they commit)"
	}
	b := s.backups[s.backup]
	ago := text.HumanDuration(s.c.now().Sub(b.Taken).Truncate(time.Second))
	return fmt.Sprintf("%s (taken %s, %s ago; %d of %d, newest first)", filepath.Base(b.Path),
		b.Taken.UTC().Format(model.StampLayout), ago, s.backup+1, len(s.backups))
}

// committedOf is the choice of topic t's partitions with a commit, when the
// group has a commit on some of them but not on all: the whole topic would
// write a first commit (at high, under --to-current) on the others.
func committedOf(g *model.Group, topics map[string]int, t string) (scopeChoice, bool) {
	ps := committedPartitions(g, t)
	if n, ok := topics[t]; len(ps) == 0 || !ok || len(ps) == n {
		return scopeChoice{}, false
	}
	return scopeChoice{id: "committed:" + t, label: "topic " + t + ": its " + text.Plural(len(ps), "partition") + " with a commit",
		scope: plan.Scope{Topics: []plan.TopicScope{{Topic: t, Partitions: ps}}}}, true
}

// committedPartitions lists the partitions of topic t the group has a commit on.
func committedPartitions(g *model.Group, t string) []int32 {
	if g == nil {
		return nil
	}
	var ps []int32
	for i := range g.Partitions {
		if p := &g.Partitions[i]; p.Topic == t && p.Position() != nil {
			ps = append(ps, p.Partition)
		}
	}
	return ps
}

// defaultScope is the scope a new plan starts with (docs/tui.md): the marked
// partitions when the operator marked some, else the selected row's topic —
// its partitions with a commit, so that with the default strategy
// (--to-current) the first plan moves nothing and writes no first commit; the
// whole topic when the selected row itself has no commit (uncommitted), so that
// the partition R was pressed on is in the plan — else (the row's topic has no
// commit, or there is no row) every partition with a commit.
func defaultScope(scopes []scopeChoice, g *model.Group, topics map[string]int, selected string, uncommitted bool) int {
	want := []string{"marked", "committed:" + selected}
	if uncommitted {
		want = []string{"marked", "topic:" + selected}
	}
	if n, ps := topics[selected], committedPartitions(g, selected); n > 0 && len(ps) == n {
		want = append(want, "topic:"+selected) // every partition of it has a commit
	}
	for _, id := range append(want, "all") {
		if i := slices.IndexFunc(scopes, func(c scopeChoice) bool { return c.id == id }); i >= 0 {
			return i
		}
	}
	return 0
}
