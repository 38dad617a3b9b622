package report

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func TestCountsText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{countsText(model.Counts{model.StatusOK: 3}), "OK 3"},
		{countsText(model.Counts{model.StatusOK: 3, model.StatusMissing: 1, model.StatusAtRisk: 2}), "MISSING 1  AT-RISK 2"},
		{countsText(model.Counts{}), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
