package model

import "testing"

func TestTotalsText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Totals{Duplicates: 1, Skipped: 1200, Partitions: 1}.String(), "re-delivers 1 record · skips 1,200 · 0 already lost · 1 partition"},
		{Totals{Duplicates: 3, Partitions: 2}.String(), "re-delivers 3 records · skips 0 · 0 already lost · 2 partitions"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
