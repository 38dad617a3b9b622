package views

import (
	"errors"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// An error joined from several brokers' errors has line breaks: it stays one
// line in the group's info and in the status line, and the group screen, which
// measures its chrome, keeps the cursor row and its explanation on screen.
func TestGroupChromeMeasured(t *testing.T) {
	clk := newClock()
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		if len(q.Groups) == 1 && q.FetchBudget > 0 {
			return model.Snapshot{}, errors.Join(errors.New("broker 1: i/o timeout"),
				errors.New("broker 2: i/o timeout"), errors.New("broker 3: i/o timeout"))
		}
		return fixtureSnapshot(fixtureNow, false), nil
	}}
	for _, h := range []int{16, 20, 24} {
		hs := newHarness(t, optsWith(src, clk), 80, h)
		hs.openGroup("audit-export")
		if g, ok := hs.m.top().(*groupScreen); !ok || g.detailErr == nil {
			t.Fatalf("height %d: group screen without the timestamps error", h)
		}
		for _, k := range []string{"G", "g", "G"} {
			hs.send(keyRunes(k))
			v := hs.view()
			checkFits(t, v, 80, h)
			if k != "G" {
				continue
			}
			for _, want := range []string{"timestamps could not be read: broker 1: i/o timeout; broker 2", "▸ orders  5",
				"topic orders · cleanup.policy delete", "MISSING  no commit from audit-export"} {
				if !strings.Contains(v, want) {
					t.Errorf("height %d: %q is off screen:\n%s", h, want, v)
				}
			}
		}
	}
}

// The `:` prompt's keys are bindings: enter runs, esc cancels, and only they.
// alt+enter is what bubbletea makes of ESC and enter read at once: esc, then
// enter, so the command is canceled, never run.
func TestCommandPromptKeys(t *testing.T) {
	hs := loaded(t, 120, 40)
	hs.send(keyRunes(":"))
	if v := hs.view(); !strings.Contains(v, "enter run • esc cancel") {
		t.Errorf("prompt help missing:\n%s", v)
	}
	hs.typeText("q").send(tea.KeyMsg{Type: tea.KeyEnter, Alt: true})
	if hs.quit || hs.m.prompt.Focused() || len(hs.m.stack) != 2 {
		t.Fatalf("alt+enter: quit %v, prompt focused %v, %d screens; want the command canceled, then the group opened",
			hs.quit, hs.m.prompt.Focused(), len(hs.m.stack))
	}
	hs.send(keyType(tea.KeyEsc), keyRunes(":"), keyType(tea.KeyEsc))
	if hs.quit || hs.m.prompt.Focused() {
		t.Fatal("esc did not cancel the prompt")
	}
	hs.send(keyRunes(":")).typeText("q").send(keyType(tea.KeyEnter))
	if !hs.quit {
		t.Fatal(":q enter did not quit")
	}
}
