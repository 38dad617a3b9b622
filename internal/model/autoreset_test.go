package model

import (
	"strings"
	"testing"
)

func TestParseAssumeReset(t *testing.T) {
	for in, want := range map[string]string{"": "latest", "latest": "latest", "EARLIEST": "earliest", " none ": "none"} {
		if got, err := ParseAssumeReset(in); err != nil || got != want {
			t.Errorf("%q: %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"foo", "smallest", "largest"} {
		if _, err := ParseAssumeReset(in); err == nil || !strings.Contains(err.Error(), "earliest, latest or none") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}
