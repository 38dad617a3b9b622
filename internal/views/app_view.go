package views

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/text"
)

// headerItems are the items of the header's first line after the app name,
// in order; each returns "" to show nothing. To add a badge (a context label,
// a connection state), add one function here: the header measures itself,
// so the screens below adjust.
var headerItems = []func(m *app) string{
	contextHeaderItem,
	func(m *app) string {
		if m.c.readOnly {
			return m.c.styles.readOnly.Render("READ-ONLY")
		}
		return ""
	},
	func(m *app) string { return truncate(m.opts.Cluster, max(12, m.width/3)) },
	func(m *app) string {
		if m.snap == nil {
			return "? brokers"
		}
		return text.Plural(m.snap.Cluster.Brokers, "broker")
	},
	func(m *app) string {
		if m.snap == nil {
			return ""
		}
		return display.KafkaLineText(m.snap.Cluster)
	},
	func(m *app) string { return m.age },
}

func (m *app) headerView() string {
	st := m.c.styles
	parts := []string{st.app.Render("offsettui")}
	for _, item := range headerItems {
		if s := item(m); s != "" {
			parts = append(parts, s)
		}
	}
	crumbs := make([]string, len(m.stack))
	for i, s := range m.stack {
		crumbs[i] = s.Crumb()
	}
	line2 := st.crumb.Render(strings.Join(crumbs, " › "))
	return truncate(strings.Join(parts, st.muted.Render(" · ")), m.width) + "\n" + truncate(line2, m.width)
}

func (m *app) footerView() string {
	st := m.c.styles
	var status string
	switch {
	case m.prompt.Focused():
		status = m.prompt.View()
	case m.flash.text != "" && m.flash.owner == m.top().ID():
		status = st.notice.Render(m.flash.text)
	case m.lastErr != nil && m.snap == nil: // nothing was read: there is no last good data to show
		status = st.err.Render("cannot read the cluster: " + m.lastErr.Error() + " — no data yet; r retries")
	case m.lastErr != nil:
		status = st.err.Render("refresh failed: " + m.lastErr.Error() + " — showing the last good data; r retries")
	case m.snap != nil && len(m.snap.Errors) > 0:
		status = st.err.Render(text.Plural(len(m.snap.Errors), "error") + " while reading: " + m.snap.Errors[0].Error())
	}
	return truncate(status, m.width) + "\n" + m.keyBar()
}

// keyBar is the line of keys within the width. A narrow terminal drops the
// global r and : first, then the screen's keys from the last but its first
// actionKeys (ShortHelp lists them most important first), then q and esc, then
// those actions, and ? last of all; "…" marks that keys were dropped (? lists
// them all).
func (m *app) keyBar() string {
	keys := slices.DeleteFunc(m.shortHelp(), func(b key.Binding) bool { return !b.Enabled() }) // they never show
	h := m.help
	h.Width = 0 // measured here, never cut inside an item
	dropped := false
	for len(keys) > 0 {
		view := h.ShortHelpView(keys)
		if dropped {
			view += h.Styles.ShortSeparator.Render(h.ShortSeparator) + h.Styles.Ellipsis.Render(ellipsis)
		}
		if lipgloss.Width(view) <= m.width {
			return view
		}
		keys, dropped = dropKey(keys, m.keys), true
	}
	return truncate(ellipsis, m.width)
}

// actionKeys is how many of a screen's keys (the first of its ShortHelp: R and
// space on a group, enter on the list) a narrow key bar keeps before q and esc.
const actionKeys = 2

// dropKey removes the key a narrow key bar can spare most: : and r; the screen's
// last key beyond its first actionKeys; q; esc; the screen's last; ? last of all.
func dropKey(keys []key.Binding, g globalKeys) []key.Binding {
	drop := func(i int) []key.Binding { return slices.Delete(slices.Clone(keys), i, i+1) }
	index := func(k key.Binding) int {
		return slices.IndexFunc(keys, func(b key.Binding) bool { return sameKey(b, k) })
	}
	for _, spare := range []key.Binding{g.Command, g.Refresh} {
		if i := index(spare); i >= 0 {
			return drop(i)
		}
	}
	var screen []int // the screen's own keys, in order
	for i, b := range keys {
		if !sameKey(b, g.Help) && !sameKey(b, g.Quit) && !sameKey(b, g.Back) {
			screen = append(screen, i)
		}
	}
	if len(screen) > actionKeys {
		return drop(screen[len(screen)-1])
	}
	for _, spare := range []key.Binding{g.Quit, g.Back} {
		if i := index(spare); i >= 0 {
			return drop(i)
		}
	}
	if len(screen) > 0 {
		return drop(screen[len(screen)-1])
	}
	return keys[:len(keys)-1]
}

// sameKey reports whether two bindings are the same key with the same help.
func sameKey(a, b key.Binding) bool { return a.Help() == b.Help() && slices.Equal(a.Keys(), b.Keys()) }

// updateAge recomputes the header's age text from the injected clock.
func (m *app) updateAge() {
	st := m.c.styles
	now := m.c.now()
	switch {
	case m.snap == nil && m.lastErr != nil:
		m.age = st.stale.Render("NO DATA: cannot read the cluster")
		return
	case m.snap == nil:
		m.age = st.muted.Render("connecting…")
		return
	case m.snap.Loading:
		m.age = st.muted.Render("loading…")
		return
	}
	at := m.snap.Cluster.TakenAt.Time
	if g := m.openGroup(); g != "" {
		if t, ok := m.detailed[g]; ok {
			at = t
		}
	}
	ago := text.HumanDuration(max(0, now.Sub(at)).Truncate(time.Second)) + " ago"
	switch {
	case m.lastErr != nil:
		m.age = st.stale.Render("STALE: data from " + ago + ", refresh failed")
	case m.ref.inFlight:
		m.age = "updated " + ago + st.muted.Render(", refreshing…")
	default:
		m.age = "updated " + ago
	}
}
