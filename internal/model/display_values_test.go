package model

import "testing"

// TestFormatTotalLag: a whole total as it is, a lower bound as "≥ N" (≥ 0 too: what was
// read shows no lag, the rest is unknown), and the unknown word only when nothing is known.
func TestFormatTotalLag(t *testing.T) {
	num := func(n int64) string { return Num(&n) }
	for _, c := range []struct {
		g    Group
		want string
	}{
		{Group{TotalLag: Ptr(int64(12))}, "12"},
		{Group{TotalLag: Ptr(int64(0))}, "0"},
		{Group{TotalLagAtLeast: Ptr(int64(5))}, "≥ 5"},
		{Group{TotalLagAtLeast: Ptr(int64(0))}, "≥ 0"},
		{Group{}, "?"},
	} {
		if got := FormatTotalLag(&c.g, num, "?"); got != c.want {
			t.Errorf("total %s, at least %s: %q, want %q", Num(c.g.TotalLag), Num(c.g.TotalLagAtLeast), got, c.want)
		}
	}
}
