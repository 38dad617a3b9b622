package views

import (
	"strings"
	"unicode"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// handleKeys splits what arrives as one key message into keys, one rune at a
// time: bubbletea v1 delivers a burst typed fast, a paste (bracketed or not)
// or input over a slow link as one message with several runes, which matches
// no binding whole. Each rune is handled as if typed alone, so "/fanout"
// opens the filter and types "fanout" into it. Once a text input has the
// keyboard it takes the rest of the runes at once. A pasted control
// character (a newline) is never taken for a key: a paste cannot confirm.
//
// Esc is one key whatever arrives with it. offsettui relies on bubbletea's
// own parsing of the input, which keeps escape sequences whole (CSI "ESC [",
// SS3 "ESC O", bracketed paste) and reads an ESC followed by anything else in
// the same read as Alt and the key after it (ESC ESC is alt+esc, ESC enter
// alt+enter, ESC ':' alt+:). offsettui binds no Alt key, so Alt is always that
// ESC: it is handled as esc, then the key.
func (m *app) handleKeys(msg tea.KeyMsg) tea.Cmd {
	if msg.Alt && !msg.Paste {
		esc := m.handleKey(tea.KeyMsg{Type: tea.KeyEscape})
		msg.Alt = false
		return tea.Batch(esc, m.handleKeys(msg))
	}
	if msg.Paste {
		// A copied name often brings a newline or spaces at its ends, which a
		// one-line field would keep as an invisible space: "ship-svc " is not
		// the group name. They are not part of what was meant.
		msg.Runes = []rune(strings.TrimFunc(string(msg.Runes), unicode.IsSpace))
	}
	if msg.Type != tea.KeyRunes || (len(msg.Runes) <= 1 && !msg.Paste) {
		return m.handleKey(msg)
	}
	var cmds []tea.Cmd
	for i, r := range msg.Runes {
		if m.textHasKeyboard() {
			rest := msg
			rest.Runes = msg.Runes[i:]
			cmds = append(cmds, m.handleKey(rest))
			break
		}
		if unicode.IsControl(r) {
			continue
		}
		cmds = append(cmds, m.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}}))
	}
	return tea.Batch(cmds...)
}

// textHasKeyboard reports whether the prompt or a screen's text input takes
// the keys.
func (m *app) textHasKeyboard() bool { return m.prompt.Focused() || m.top().Capturing() }

// handleKey handles one key.
func (m *app) handleKey(msg tea.KeyMsg) tea.Cmd {
	if key.Matches(msg, m.keys.ForceQuit) {
		if m.cancel() { // a reset still watching before its backup: ctrl+c stops it, nothing written
			return nil
		}
		return m.quit()
	}
	if m.prompt.Focused() {
		return m.updatePrompt(msg)
	}
	if m.top().Capturing() {
		return m.forward(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help):
		if _, open := m.top().(*helpScreen); open {
			m.pop()
			return nil
		}
		m.openHelp()
		return nil
	case key.Matches(msg, m.keys.Command):
		m.prompt.SetValue("")
		return m.prompt.Focus()
	case key.Matches(msg, m.keys.Refresh):
		return m.refreshNow()
	case key.Matches(msg, m.keys.Back):
		if m.top().Back() || len(m.stack) == 1 {
			return nil
		}
		if why := m.top().Busy(); why != "" {
			m.setFlash(why)
			return nil
		}
		m.pop()
		return m.maybeRefresh()
	}
	return m.forward(msg)
}

// openHelp pushes the help of the screen on top.
func (m *app) openHelp() {
	m.push(newHelpScreen(m.c, m.top(), m.keys, m.enabledCommands()))
}

// updatePrompt runs the `:` command prompt.
func (m *app) updatePrompt(msg tea.KeyMsg) tea.Cmd {
	switch {
	case key.Matches(msg, m.keys.PromptCancel):
		m.prompt.Blur()
		return nil
	case key.Matches(msg, m.keys.PromptRun):
		m.prompt.Blur()
		return m.runCommand(strings.TrimSpace(m.prompt.Value()))
	}
	var cmd tea.Cmd
	m.prompt, cmd = m.prompt.Update(msg)
	return cmd
}
