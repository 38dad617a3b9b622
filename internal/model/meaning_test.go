package model

import "testing"

// Every status has its legend; the unknown one is never taken for another.
func TestStatusMeaning(t *testing.T) {
	seen := map[string]Status{}
	for _, s := range AllStatuses {
		m := s.Meaning()
		if prev, dup := seen[m]; dup || m == "" {
			t.Errorf("%s: meaning %q (also %s)", s, m, prev)
		}
		seen[m] = s
	}
}
