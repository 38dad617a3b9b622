package views

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model/plan"
)

// The planner's keys, phase by phase. No single key writes anything: enter
// arms, the typed group name and enter execute.

// updateKey hands a key to the current phase's keys.
func (s *plannerScreen) updateKey(msg tea.KeyMsg) tea.Cmd {
	s.flash = ""
	switch s.phase {
	case phaseExecuting:
		s.updateExecuting(msg)
		return nil
	case phaseResult:
		if o, ok := s.keys.Scroll.moveCursor(msg, s.offset, len(s.body)-s.bodyH+1, s.bodyH); ok {
			s.offset = o
		}
		return nil
	case phaseArmed:
		return s.updateArmed(msg)
	}
	if s.holding {
		return s.updateHolding(msg)
	}
	return s.updateEdit(msg)
}

// updateExecuting runs the keys while the reset runs. Until its backup begins, esc
// cancels it and q cancels it and quits once its result (cancelled) is in; ctrl+c (the
// root) cancels too. After, nothing stops it: Busy says so.
func (s *plannerScreen) updateExecuting(msg tea.KeyMsg) {
	switch {
	case key.Matches(msg, s.keys.Disarm):
		if !s.Cancel() {
			s.flash = s.Busy()
		}
	case key.Matches(msg, s.keys.CancelQuit):
		if s.Cancel() {
			s.c.post(QuitRequestedMsg{})
		} else {
			s.flash = s.Busy()
		}
	}
}

// updateEdit runs the form's keys: paging, the copy's source, arming and moving
// between fields first, then the value typed or the focused field's choice.
func (s *plannerScreen) updateEdit(msg tea.KeyMsg) tea.Cmd {
	switch {
	case s.scroll(msg):
		return nil
	case s.choosingSource() && (key.Matches(msg, s.keys.SourcePrev) || key.Matches(msg, s.keys.SourceNext)):
		step := 1
		if key.Matches(msg, s.keys.SourcePrev) {
			step = -1
		}
		s.src.move(step)
		s.values[plan.FromGroup] = s.src.chosen()
		return s.requestPlan()
	case key.Matches(msg, s.keys.Arm) && s.armable():
		s.offset = 0
		s.phase = phaseArmed
		s.value.Blur()
		s.confirm.SetValue("")
		return s.confirm.Focus()
	case key.Matches(msg, s.keys.NextField), key.Matches(msg, s.keys.PrevField):
		return s.stepField(msg)
	}
	if s.typing() {
		return s.updateValue(msg)
	}
	if key.Matches(msg, s.keys.AllowCommitter) {
		s.toggleCommitterGuard()
		return nil
	}
	if key.Matches(msg, s.keys.AssumeReset) {
		s.switchAssumption()
		return nil
	}
	if key.Matches(msg, s.keys.PlanFile) {
		return s.writePlanFile()
	}
	switch {
	case key.Matches(msg, s.keys.Choose):
		return s.choose(-1)
	case key.Matches(msg, s.keys.ChooseNext):
		return s.choose(1)
	}
	return nil
}

// stepField moves the focus to the next or previous field, past the value when
// the strategy takes none.
func (s *plannerScreen) stepField(msg tea.KeyMsg) tea.Cmd {
	step := 1
	if key.Matches(msg, s.keys.PrevField) {
		step = fieldCount - 1
	}
	s.field = (s.field + step) % fieldCount
	if s.field == fieldValue && !plannerKinds[s.kind].TakesValue() {
		s.field = (s.field + step) % fieldCount // nothing to type: skip it
	}
	return s.focusField()
}

// choose steps the focused field's choice (the strategy, a restore's backup, or
// the scope) by step, and plans again.
func (s *plannerScreen) choose(step int) tea.Cmd {
	switch {
	case s.field == fieldStrategy:
		s.kind = s.nextKind(step)
		s.value.SetValue(s.valueText())
		s.value.Placeholder = valueExample[s.kindNow()]
		if s.kindNow() == plan.Restore {
			s.chooseBackup(0)
		}
		s.kindChanged()
	case s.field == fieldValue: // a restore: the next or previous backup
		s.chooseBackup(step)
	default:
		s.moveScope(step)
	}
	return s.requestPlan()
}

// updateValue types into the value field; esc gives the keyboard back.
func (s *plannerScreen) updateValue(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, s.keys.LeaveField) {
		s.field = fieldStrategy
		return s.focusField()
	}
	var cmd tea.Cmd
	s.value, cmd = s.value.Update(msg)
	if s.value.Value() == s.valueText() {
		return cmd
	}
	kind := s.kindNow()
	if kind == plan.FromGroup { // the text filters the sources; the value is the one chosen
		s.src.setFilter(s.value.Value())
		s.values[kind] = s.src.chosen()
	} else {
		s.values[kind] = s.value.Value()
	}
	return tea.Batch(cmd, s.requestPlan())
}

// valueText is what the value field holds for the current kind: the value typed, or
// for a copy the filter of the source groups.
func (s *plannerScreen) valueText() string {
	if s.kindNow() == plan.FromGroup {
		return s.src.filter
	}
	return s.values[s.kindNow()]
}

// scroll pages the plan table; false when msg is no scroll key.
func (s *plannerScreen) scroll(msg tea.KeyMsg) bool {
	page := max(1, listRows(len(s.body), s.bodyH)-1)
	switch {
	case key.Matches(msg, s.keys.ScrollDown):
		s.offset += page
	case key.Matches(msg, s.keys.ScrollUp):
		s.offset -= page
	default:
		return false
	}
	s.offset = max(0, min(s.offset, len(s.body)-listRows(len(s.body), s.bodyH)))
	return true
}

func (s *plannerScreen) focusField() tea.Cmd {
	if s.typing() {
		return s.value.Focus()
	}
	s.value.Blur()
	return nil
}

// updateArmed runs the name prompt: the exact group name and enter execute,
// anything else executes nothing. pgup/pgdn still page the plan.
func (s *plannerScreen) updateArmed(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Disarm):
		s.disarm("disarmed: nothing was written")
		return nil
	case s.scroll(msg):
		return nil
	case key.Matches(msg, s.keys.Confirm):
		typed := s.confirm.Value()
		if typed != s.group {
			if typed == "" {
				s.flash = "type the group name " + s.group + " first; nothing was written"
			} else if strings.TrimSpace(typed) == s.group {
				s.flash = fmt.Sprintf("%q is not the group name: it has spaces at its ends; nothing was written", typed)
			} else {
				s.flash = fmt.Sprintf("%q is not the group name: nothing was written; type %s exactly, or esc", typed, s.group)
			}
			return nil
		}
		if !s.armable() { // cannot happen: a changed plan disarms; guard anyway
			s.disarm("the plan can no longer be executed; disarmed")
			return nil
		}
		s.phase, s.writeBegun, s.cancelling = phaseExecuting, false, false
		s.confirm.Blur()
		var ctx context.Context
		ctx, s.cancelExec = context.WithCancel(s.ctx)
		return executePlanCmd(ctx, s.rs, s.id, *s.plan)
	}
	var cmd tea.Cmd
	s.confirm, cmd = s.confirm.Update(msg)
	return cmd
}

// updateHolding runs the name field of a plan that disarmed itself: what is
// typed stays in the field, enter executes nothing, esc leaves the field and
// gives the planner its keys back; pgup/pgdn still page the plan.
func (s *plannerScreen) updateHolding(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, s.keys.Disarm):
		s.disarm("left the name field: review the plan, then enter arms it again")
		return nil
	case s.scroll(msg):
		return nil
	case key.Matches(msg, s.keys.Confirm):
		s.flash = "the plan changed and was disarmed: nothing was written; esc, review it, then enter arms it again"
		return nil
	}
	var cmd tea.Cmd
	s.confirm, cmd = s.confirm.Update(msg)
	return cmd
}

// nextKind is the strategy step away from the current one, skipping those the
// group type's tool does not have (a share group: no --shift-by, no
// --by-duration), so they are never offered and blocked only once typed.
func (s *plannerScreen) nextKind(step int) int {
	k := s.kind
	for range plannerKinds {
		k = (k + step + len(plannerKinds)) % len(plannerKinds)
		if s.g == nil || plan.Offers(s.g.Type, plannerKinds[k]) {
			return k
		}
	}
	return s.kind
}
