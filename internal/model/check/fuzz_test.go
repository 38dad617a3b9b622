package check

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func FuzzParseShareReset(f *testing.F) {
	for _, s := range []string{"earliest", "latest", "LATEST", " earliest ", "by_duration:PT1H", "BY_DURATION:P1D", "by_duration:", "", "none", "by_duration"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, ok := parseShareReset(&s)
		if !ok {
			if r.kind != "" {
				t.Fatalf("%q: not ok but kind %q", s, r.kind)
			}
			return
		}
		switch r.kind {
		case model.ResetEarliest, model.ResetLatest:
			if r.duration != "" {
				t.Fatalf("%q: kind %s with a duration %q", s, r.kind, r.duration)
			}
		case "by_duration":
			if r.duration == "" || !strings.HasSuffix(strings.TrimSpace(s), r.duration) {
				t.Fatalf("%q: duration %q is not the tail of the value", s, r.duration)
			}
		default:
			t.Fatalf("%q: ok with kind %q", s, r.kind)
		}
		if r.raw != strings.TrimSpace(s) {
			t.Fatalf("%q: raw %q, want the trimmed value", s, r.raw)
		}
	})
}
