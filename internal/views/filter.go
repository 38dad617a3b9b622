package views

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
)

// The `/` filter of every list, one grammar (docs/tui.md): words separated by
// spaces must all match; !word must not. A word that is a keyword (a status,
// a group state or type, "error") matches that field of the row; any other
// word is a case-insensitive substring of the row's names (the group screen:
// group and topic names; the partitions: topic, topic-partition, consumer).

// filterKeywords are the words that match a field instead of a name. To make
// a new field filterable (a group type), add its values here and to the rows'
// tags (groupRow.tags, partitionTags).
var filterKeywords = func() map[string]bool {
	m := map[string]bool{"error": true, "committer": true}
	for _, st := range model.AllStatuses {
		m[st.String()] = true
	}
	for _, s := range []string{"empty", "stable", "dead", "preparingrebalance", "completingrebalance", "assigning",
		"reconciling", "notready"} {
		m[s] = true
	}
	for _, ev := range evaluationKeywords {
		m[ev.String()] = true
	}
	// A group type: type:share for every type, and the bare word for all but "unknown",
	// which as a bare word is the status.
	for _, t := range model.GroupTypes {
		m["type:"+t] = true
		if t != model.TypeUnknown {
			m[t] = true
		}
	}
	return m
}()

// evaluationKeywords are the evaluations a filter word finds (an unknown one is
// the status "unknown"): /stopped lists the idle groups the urgency order puts
// last.
var evaluationKeywords = []model.Evaluation{model.EvalWarn, model.EvalStopped, model.EvalStalled, model.EvalRewound}

// evaluationTags adds an evaluation's filter keyword to tags, when it has one.
func evaluationTags(tags []string, ev model.Evaluation) []string {
	if slices.Contains(evaluationKeywords, ev) {
		tags = append(tags, ev.String())
	}
	return tags
}

// filterTerm is one word of a filter.
type filterTerm struct {
	word    string
	not     bool
	keyword bool
}

// filterSpec is a parsed filter; the zero value keeps every row.
type filterSpec struct{ terms []filterTerm }

// parseFilter reads the filter as typed.
func parseFilter(v string) filterSpec {
	var f filterSpec
	for _, w := range strings.Fields(strings.ToLower(v)) {
		t := filterTerm{word: w}
		if rest, ok := strings.CutPrefix(w, "!"); ok {
			t.word, t.not = rest, true
		}
		if t.word == "" {
			continue
		}
		t.keyword = filterKeywords[t.word]
		f.terms = append(f.terms, t)
	}
	return f
}

// filterTarget is what a row offers the filter: its names, lower-case and
// \x00-separated, and the keywords of its fields.
type filterTarget struct {
	names string
	tags  []string
}

// keep reports whether a row passes every word of the filter.
func (f filterSpec) keep(t *filterTarget) bool {
	for _, term := range f.terms {
		var hit bool
		if term.keyword {
			hit = slices.Contains(t.tags, term.word)
		} else {
			hit = strings.Contains(t.names, term.word)
		}
		if hit == term.not {
			return false
		}
	}
	return true
}

// filterNames builds the names part of a target.
func filterNames(names ...string) string { return strings.ToLower(strings.Join(names, "\x00")) }

// groupTags are a group's keywords: each status it has (ok only when nothing
// is wrong), "error" when it could not be read, its state, its type (bare,
// and as type:TYPE) and its evaluation.
func groupTags(g *model.Group) []string {
	var tags []string
	for _, sc := range g.Counts.Ordered() {
		tags = append(tags, sc.Status.String())
	}
	if g.Error != nil {
		tags = slices.DeleteFunc(tags, func(s string) bool { return s == model.StatusOK.String() })
		tags = append(tags, "error")
	}
	tags = append(tags, strings.ToLower(g.State), "type:"+g.Type)
	if g.Committer != nil {
		tags = append(tags, "committer")
	}
	if g.Type != model.TypeUnknown {
		tags = append(tags, g.Type)
	}
	if g.Time != nil {
		tags = evaluationTags(tags, g.Time.Evaluation)
	}
	return tags
}

// partitionTarget is what the group screen's filter sees of a partition.
func partitionTarget(p *model.GroupPartition) filterTarget {
	names := []string{p.Topic, p.TP().String()}
	if p.Member != nil {
		names = append(names, p.Member.Name(), strings.TrimPrefix(p.Member.Host, "/"))
	}
	tags := []string{p.Status.String()}
	if p.Error != nil {
		tags = append(tags, "error")
	}
	if p.Time != nil {
		tags = evaluationTags(tags, p.Time.Evaluation)
	}
	return filterTarget{names: filterNames(names...), tags: tags}
}

// filterHelp explains the filter in the help screen, for a list whose names
// are what names says.
func filterHelp(names string) []string {
	return []string{"/ filters as you type. Every word must match; !word must not. A status (expired ahead missing " +
		"at-risk unknown ok), error, a state (empty stable dead …), a type (classic consumer share streams type:unknown) " +
		"or an evaluation (warn stopped stalled rewound) matches that field; any other word is part of " + names + "."}
}

// listFilter is a list screen's applied `/` filter: as typed (trimmed, for the title) and
// parsed.
type listFilter struct {
	text string
	spec filterSpec
}

// set applies text and enables the binding that clears it while it is not empty.
func (f *listFilter) set(text string, clear *key.Binding) {
	f.text, f.spec = strings.TrimSpace(text), parseFilter(text)
	clear.SetEnabled(f.text != "")
}

// filterKey runs a list's `/` input for one key: apply (enter) closes it keeping the
// filter and reports true; cancel (esc) closes it and clears the filter; any other key
// edits it and the text is applied as typed. set applies a filter text.
func filterKey(in *textinput.Model, msg tea.KeyMsg, apply, cancel key.Binding, set func(string)) (applied bool, cmd tea.Cmd) {
	switch {
	case key.Matches(msg, apply):
		in.Blur()
		return true, nil
	case key.Matches(msg, cancel):
		in.Blur()
		set("")
		return false, nil
	}
	*in, cmd = in.Update(msg)
	set(in.Value())
	return false, cmd
}

// startFilter opens a new, empty filter: it never concatenates with the last one.
func startFilter(in *textinput.Model, set func(string)) tea.Cmd {
	in.SetValue("")
	set("")
	return in.Focus()
}
