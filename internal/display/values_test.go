package display

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// TestFormatTotalLag: a whole total as it is, a lower bound as "≥ N" (≥ 0 too: what was
// read shows no lag, the rest is unknown), and the unknown word only when nothing is known.
func TestFormatTotalLag(t *testing.T) {
	num := func(n int64) string { return text.Num(&n) }
	for _, c := range []struct {
		g    model.Group
		want string
	}{
		{model.Group{TotalLag: model.Ptr(int64(12))}, "12"},
		{model.Group{TotalLag: model.Ptr(int64(0))}, "0"},
		{model.Group{TotalLagAtLeast: model.Ptr(int64(5))}, "≥ 5"},
		{model.Group{TotalLagAtLeast: model.Ptr(int64(0))}, "≥ 0"},
		{model.Group{}, "?"},
	} {
		if got := FormatTotalLag(&c.g, num, "?"); got != c.want {
			t.Errorf("total %s, at least %s: %q, want %q", text.Num(c.g.TotalLag), text.Num(c.g.TotalLagAtLeast), got, c.want)
		}
	}
}
