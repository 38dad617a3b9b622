package model

import "testing"

func TestCountsText(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Counts{StatusOK: 3}.Text(), "OK 3"},
		{Counts{StatusOK: 3, StatusMissing: 1, StatusAtRisk: 2}.Text(), "MISSING 1  AT-RISK 2"},
		{Counts{}.Text(), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
