package views

import (
	"io"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// palette is the only place with color values; screens use the semantic
// styles. Each color has a light-background and a dark-background value
// (lipgloss picks by the terminal's background) and each meets WCAG AA
// contrast, 4.5:1, against the common light and dark terminal backgrounds
// (themeBackgrounds, checked by TestThemeContrast).
var palette = struct {
	ok, lagging, atRisk, expired, missing, ahead, unknown, muted, err, accent, notice lipgloss.AdaptiveColor
}{
	ok:      lipgloss.AdaptiveColor{Light: "#176F33", Dark: "#5FD787"},
	lagging: lipgloss.AdaptiveColor{Light: "#7A6A00", Dark: "#D7D75F"},
	atRisk:  lipgloss.AdaptiveColor{Light: "#9E4F00", Dark: "#FFAF5F"},
	expired: lipgloss.AdaptiveColor{Light: "#C00000", Dark: "#FF7B7B"},
	missing: lipgloss.AdaptiveColor{Light: "#9B00A6", Dark: "#FF87FF"},
	ahead:   lipgloss.AdaptiveColor{Light: "#0050B3", Dark: "#5FAFFF"},
	unknown: lipgloss.AdaptiveColor{Light: "#5F5F5F", Dark: "#BCBCBC"},
	muted:   lipgloss.AdaptiveColor{Light: "#666666", Dark: "#A8A8A8"},
	err:     lipgloss.AdaptiveColor{Light: "#C00000", Dark: "#FF7B7B"},
	accent:  lipgloss.AdaptiveColor{Light: "#005F87", Dark: "#87D7FF"},
	notice:  lipgloss.AdaptiveColor{Light: "#5F3DC4", Dark: "#D7AFFF"},
}

// styles is the semantic theme, built once (gh-dash theme/theme.go). Color is
// never the only signal: statuses have text badges and the cursor row a glyph.
type styles struct {
	ok, lagging, atRisk, expired, missing, ahead, unknown lipgloss.Style

	muted, err, stale, readOnly, app, crumb, title, colHeader, selected lipgloss.Style
	helpKey, helpDesc, helpSep, section, prompt, notice                 lipgloss.Style
}

// newStyles builds the theme. noColor renders through a renderer fixed to the
// Ascii profile, so NO_COLOR and --no-color drop every escape sequence.
func newStyles(noColor bool) *styles {
	r := lipgloss.DefaultRenderer()
	if noColor {
		r = lipgloss.NewRenderer(io.Discard)
		r.SetColorProfile(termenv.Ascii)
		r.SetHasDarkBackground(true)
	}
	fg := func(c lipgloss.AdaptiveColor) lipgloss.Style { return r.NewStyle().Foreground(c) }
	return &styles{
		ok:        fg(palette.ok),
		lagging:   fg(palette.lagging),
		atRisk:    fg(palette.atRisk).Bold(true),
		expired:   fg(palette.expired).Bold(true),
		missing:   fg(palette.missing).Bold(true),
		ahead:     fg(palette.ahead).Bold(true),
		unknown:   fg(palette.unknown).Bold(true),
		muted:     fg(palette.muted),
		err:       fg(palette.err),
		stale:     fg(palette.err).Bold(true),
		readOnly:  fg(palette.atRisk).Bold(true),
		app:       fg(palette.accent).Bold(true),
		crumb:     fg(palette.accent),
		title:     r.NewStyle().Bold(true),
		colHeader: fg(palette.muted).Bold(true),
		selected:  r.NewStyle().Bold(true).Reverse(true),
		helpKey:   fg(palette.accent),
		helpDesc:  r.NewStyle(),
		helpSep:   fg(palette.muted),
		section:   fg(palette.accent).Bold(true),
		prompt:    fg(palette.accent).Bold(true),
		notice:    fg(palette.notice).Bold(true),
	}
}

// status returns the style of a status badge.
func (s *styles) status(st model.Status) lipgloss.Style {
	switch st {
	case model.StatusOK:
		return s.ok
	case model.StatusAtRisk:
		return s.atRisk
	case model.StatusMissing:
		return s.missing
	case model.StatusAhead:
		return s.ahead
	case model.StatusExpired:
		return s.expired
	default:
		return s.unknown
	}
}

// outcome returns the style of a reset's outcome badge: ok when applied, at-risk when
// partly, expired for the rest (refused, failed, overwritten, cancelled).
func (s *styles) outcome(o plan.ResetOutcome) lipgloss.Style {
	switch o {
	case plan.OutcomeApplied:
		return s.ok
	case plan.OutcomePartlyApplied:
		return s.atRisk
	}
	return s.expired
}

// lag returns the style of a lag: lagging is a shade of ok, not a status; a
// lag that is not known (no commit) is muted, never ok-green.
func (s *styles) lag(n *int64) lipgloss.Style {
	switch {
	case n == nil:
		return s.muted
	case *n > 0:
		return s.lagging
	}
	return s.ok
}

// contextBadge styles a context's label in the header: bold, in the context's own colour
// (ContextInfo.Color, an ANSI number or #rrggbb from the user's config, not the theme).
// Without colour it is bold text.
func contextBadge(s *styles, c ContextInfo) lipgloss.Style {
	if c.Color == "" {
		return s.title
	}
	return s.title.Foreground(lipgloss.Color(c.Color))
}

// help returns a help model drawn with the theme.
func (s *styles) help() help.Model {
	h := help.New()
	h.Styles = help.Styles{
		Ellipsis:       s.helpSep,
		ShortKey:       s.helpKey,
		ShortDesc:      s.helpDesc,
		ShortSeparator: s.helpSep,
		FullKey:        s.helpKey,
		FullDesc:       s.helpDesc,
		FullSeparator:  s.helpSep,
	}
	return h
}
