package display

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// Every status has its legend; the unknown one is never taken for another.
func TestStatusMeaning(t *testing.T) {
	seen := map[string]model.Status{}
	for _, s := range model.AllStatuses {
		m := StatusMeaning(s)
		if prev, dup := seen[m]; dup || m == "" {
			t.Errorf("%s: meaning %q (also %s)", s, m, prev)
		}
		seen[m] = s
	}
}
