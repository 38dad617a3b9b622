package text

import (
	"math"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

func TestTexts(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Thousands(0), "0"}, {Thousands(999), "999"}, {Thousands(1000), "1,000"}, {Thousands(int64(-1234567)), "-1,234,567"},
		{Thousands(123456), "123,456"}, {OptThousands(nil), "-"}, {OptThousands(model.Ptr[int64](12345)), "12,345"},
		{HumanDuration(0), "0s"}, {HumanDuration(45 * time.Second), "45s"}, {HumanDuration(12*time.Minute + 5*time.Second), "12m5s"},
		{HumanDuration(3*time.Hour + 12*time.Minute), "3h12m"}, {HumanDuration(52 * time.Hour), "2d4h"}, {HumanDuration(72 * time.Hour), "3d"},
		{HumanDuration(-90 * time.Second), "-1m30s"}, {HumanDuration(250 * time.Millisecond), "250ms"},
		{Plural(1, "record"), "1 record"}, {Plural(0, "record"), "0 records"}, {Plural(int64(1200), "partition"), "1,200 partitions"},
		{Plural(-1, "record"), "-1 record"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// TestRateStep: the step RateNum shows a rate at.
func TestRateStep(t *testing.T) {
	for _, tc := range []struct{ v, want float64 }{{105, 1}, {20, 1}, {10, 1}, {9.9, 0.1}, {1, 0.1}, {0.39, 0.01}, {0.05, 0.001}, {0, 0}, {-3, 0.1}} {
		if got := RateStep(tc.v); math.Abs(got-tc.want) > tc.want*1e-9 {
			t.Errorf("RateStep(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// TestShortenMiddle: a name cut to w keeps its start and a little more of its end.
func TestShortenMiddle(t *testing.T) {
	runes := func(s string) int { return len([]rune(s)) }
	for _, tc := range []struct {
		s    string
		w    int
		want string
	}{
		{"payments-settlement-eu-west-consumer-v2-a", 24, "payments-…-consumer-v2-a"},
		{"short", 24, "short"},
		{"orders", 2, "o…"},
		{"orders", 0, ""},
		{"αβγδεζηθικλμ", 7, "αβ…ικλμ"},
	} {
		if got := ShortenMiddle(tc.s, tc.w, runes); got != tc.want || runes(got) > max(tc.w, 0) {
			t.Errorf("ShortenMiddle(%q, %d) = %q, want %q", tc.s, tc.w, got, tc.want)
		}
	}
}
