package views

import (
	"strings"
	"testing"
	"unicode"
)

// FuzzParseFilter: any input parses; every term has a word; a filter of one
// plain name word keeps a row with that name and drops it negated.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "fanout", "!ok", "orders !ok", "  a  b ", "!", "!!x", "EXPIRED", "日本 !語", "at-risk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec := parseFilter(s)
		for _, term := range spec.terms {
			if term.word == "" || strings.ContainsFunc(term.word, unicode.IsSpace) {
				t.Fatalf("%q: term %+v", s, term)
			}
		}
		w := strings.ToLower(strings.TrimSpace(s))
		if w == "" || strings.ContainsFunc(w, unicode.IsSpace) || strings.HasPrefix(w, "!") || filterKeywords[w] {
			return
		}
		row := &filterTarget{names: filterNames("x", s, "y")}
		if !parseFilter(w).keep(row) {
			t.Fatalf("/%s drops a row named %q", s, s)
		}
		if parseFilter("!" + w).keep(row) {
			t.Fatalf("/!%s keeps a row named %q", s, s)
		}
	})
}
