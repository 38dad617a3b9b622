package parse

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// Fuzz targets for the parsers of this package (docs/testing.md lists the others).
// Run one with: go test -run=^$ -fuzz=FuzzParseDatetime ./internal/model/parse/

func FuzzParseDatetime(f *testing.F) {
	for _, s := range []string{
		"2020-11-10T16:51:38.198", "2020-11-10T16:51:38.198+08:00", "2020-11-10T16:51:38.198+0800",
		"2020-11-10T16:51:38.198+08", "2026-11-29T08:00:00Z", "2026-11-29T08:00:00.123456789-01:30",
		"2020-11-10T16:51:38.5", "2020-11-10T16:51:38.198+0530", "1969-12-31T23:59:59.999Z", "2020-02-30T00:00:00",
		"9999-12-31T23:59:59.999-13:00", "", "T", "2020-11-10T16:51:38.198Z\x00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Datetime(s)
		if err != nil {
			if !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) || !strings.Contains(err.Error(), "yyyy-MM-ddTHH:mm:ss.SSS") {
				t.Fatalf("error %q does not name the input %q and the accepted form", err, s)
			}
			return
		}
		if got.Location() != time.UTC || got.Before(time.Unix(0, 0)) || got.Nanosecond()%int(time.Millisecond) != 0 {
			t.Fatalf("%q → %v: want UTC, not before 1970, whole milliseconds", s, got)
		}
		// Re-formatting in both the Kafka form and offsettui's JSON form reads back equal.
		layouts := []string{"2006-01-02T15:04:05.000", model.StampLayout, "2006-01-02T15:04:05.000000000-0700"}
		if got.Nanosecond() == 0 {
			layouts = append(layouts, time.RFC3339)
		}
		for _, layout := range layouts {
			again, err := Datetime(got.Format(layout))
			if err != nil || !again.Equal(got) {
				t.Fatalf("%q → %v; re-parsing %q gave %v, %v", s, got, got.Format(layout), again, err)
			}
		}
		// Where Go's RFC 3339 parser also accepts the input, both agree.
		if ref, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s)); err == nil && !ref.Equal(got) {
			t.Fatalf("%q → %v, but RFC 3339 says %v", s, got, ref)
		}
	})
}

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"90s", "36h", "PT36H", "P3D", "-PT1.5S", "p1dt2h3m4.5s", "P", "PT", "1h30m", "-5m",
		"PT0.000000001S", "P106751D", "P1Y", "PT1H1H", "PT1.5H", " PT1M ", "10d", "6d23h", "-1.5d2h", "106751d",
		"PT2562047H47M16.854775807S" /* the known overflow: skipped below */} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := Duration(s)
		if err != nil {
			if strings.TrimSpace(s) != "" && !strings.Contains(err.Error(), fmt.Sprintf("%q", s)) {
				t.Fatalf("error %q does not name the input %q", err, s)
			}
			return
		}
		// Go's own rendering reads back as the same duration.
		if again, err := Duration(d.String()); err != nil || again != d {
			t.Fatalf("%q → %v; re-parsing %q gave %v, %v", s, d, d.String(), again, err)
		}
		// What the screens write reads back as the same duration, to its precision.
		if h := text.HumanDuration(d); !strings.Contains(h, "ms") {
			back, err := Duration(h)
			if err != nil || back.Abs() > d.Abs() || d.Abs()-back.Abs() >= humanStep(d.Abs()) {
				t.Fatalf("%q → %v → %q → %v, %v", s, d, h, back, err)
			}
		}
		in := strings.TrimSpace(s)
		if in[0] != 'P' && in[0] != 'p' {
			return
		}
		if d < 0 {
			t.Fatalf("%q: an unsigned ISO-8601 duration parsed as %v", s, d)
		}
		if neg, err := Duration("-" + in); err != nil || neg != -d {
			t.Fatalf("%q → %v, but -%s → %v, %v", s, d, in, neg, err)
		}
	})
}

// humanStep is the smallest unit HumanDuration writes for d.
func humanStep(d time.Duration) time.Duration {
	switch {
	case d < time.Hour:
		return time.Second
	case d < 24*time.Hour:
		return time.Minute
	default:
		return time.Hour
	}
}
