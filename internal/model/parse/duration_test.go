package parse

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/text"
)

// What the screens write reads back as a duration: "6d23h" in a table can be
// typed into --risk-window.
func TestHumanDurationParsesBack(t *testing.T) {
	for _, d := range []time.Duration{0, 45 * time.Second, 12*time.Minute + 5*time.Second, 3*time.Hour + 12*time.Minute,
		6*24*time.Hour + 23*time.Hour, 10 * 24 * time.Hour, -(26 * time.Hour), 500 * time.Millisecond} {
		got, err := Duration(text.HumanDuration(d))
		if err != nil || got != d {
			t.Errorf("Duration(HumanDuration(%v) = %q) = %v, %v", d, text.HumanDuration(d), got, err)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"90s": 90 * time.Second, "36h": 36 * time.Hour, "PT36H": 36 * time.Hour, "P3D": 72 * time.Hour,
		"pt1.5s": 1500 * time.Millisecond, "-PT1M": -time.Minute, "P1DT2H3M4S": 26*time.Hour + 3*time.Minute + 4*time.Second,
		"10d": 240 * time.Hour, "6d23h": 167 * time.Hour, "1.5d": 36 * time.Hour, "-2d12h": -60 * time.Hour,
		"1d12h30m": 36*time.Hour + 30*time.Minute, "+1d": 24 * time.Hour, "12h1d": 36 * time.Hour,
	} {
		got, err := Duration(in)
		if err != nil || got != want {
			t.Errorf("Duration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "P", "PT", "P1Y", "P1W", "PT1H2H", "PTM", "3 days", "P1.5D", "PT1e3S",
		"d", "1dd", "1d5", "--1d", "1e3d", "1D", "106752d", "1d 2h", ".d"} {
		if _, err := Duration(bad); err == nil {
			t.Errorf("Duration(%q) accepted", bad)
		}
	}
}
