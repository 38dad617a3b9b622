package parse

import (
	"strings"
	"testing"
	"time"
)

func TestParseDatetime(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC()
	}
	tests := []struct {
		in   string
		want time.Time
	}{
		// Kafka's documented forms (Utils.getDateTime javadoc).
		{"2020-11-10T16:51:38.198", utc("2020-11-10T16:51:38.198Z")},       // no zone: UTC
		{"2020-11-10T16:51:38.198Z", utc("2020-11-10T16:51:38.198Z")},      // XXX
		{"2020-11-10T16:51:38.198+08:00", utc("2020-11-10T08:51:38.198Z")}, // XXX
		{"2020-11-10T16:51:38.198+0800", utc("2020-11-10T08:51:38.198Z")},  // Z / XX
		{"2020-11-10T16:51:38.198+08", utc("2020-11-10T08:51:38.198Z")},    // X
		{"2020-11-10T16:51:38.198-05:30", utc("2020-11-10T22:21:38.198Z")},
		{"2020-11-10T16:51:38.198-00:00", utc("2020-11-10T16:51:38.198Z")},
		// RFC 3339, with and without a fraction.
		{"2026-11-29T08:00:00Z", utc("2026-11-29T08:00:00Z")},
		{"2026-11-29T08:00:00+01:00", utc("2026-11-29T07:00:00Z")},
		{"2026-11-29T08:00:00", utc("2026-11-29T08:00:00Z")},
		{"2026-11-29T08:53:36.123Z", utc("2026-11-29T08:53:36.123Z")}, // offsettui's own JSON
		{"2026-11-29T08:53:36.123000Z", utc("2026-11-29T08:53:36.123Z")},
		{"2026-11-29T08:53:36.123000000+00:00", utc("2026-11-29T08:53:36.123Z")},
		{"  2024-02-29T23:59:59.999  ", utc("2024-02-29T23:59:59.999Z")}, // leap day, spaces trimmed
		{"1970-01-01T00:00:00.000Z", utc("1970-01-01T00:00:00Z")},
		{"1970-01-01T01:00:00.000+01:00", utc("1970-01-01T00:00:00Z")},
		{"2026-01-01T00:00:00.000+14:00", utc("2025-12-31T10:00:00Z")}, // Kiribati
		{"2026-01-01T00:00:00.000-13:00", utc("2026-01-01T13:00:00Z")},
	}
	for _, tc := range tests {
		got, err := Datetime(tc.in)
		if err != nil {
			t.Errorf("Datetime(%q): %v", tc.in, err)
			continue
		}
		if !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("Datetime(%q) = %v, want %v in UTC", tc.in, got, tc.want)
		}
	}
}

func TestParseDatetimeErrors(t *testing.T) {
	tests := []struct {
		in, why string
	}{
		{"", "expected 4 digits"},
		{"2020-11-10", `expected 'T'`},              // Kafka: no 'T'
		{"2020-11-10 16:51:38.198", `expected 'T'`}, // space instead of T
		{"2020-11-10T16:51", `expected ':'`},        // seconds required
		{"2020-11-10T16:51:38.5", "ambiguous (Kafka reads 5 ms, RFC 3339 500 ms)"},
		{"2020-11-10T16:51:38.05Z", "ambiguous (Kafka reads 5 ms, RFC 3339 50 ms)"},
		{"2020-11-10T16:51:38.0005Z", "finer than a millisecond"},
		{"2020-11-10T16:51:38.1234567890Z", "more than 9 digits"},
		{"2020-11-10T16:51:38.Z", "expected digits after '.'"},
		{"2020-11-10T16:51:38.198+0530", "Kafka reads it as +05:00"}, // Kafka drops the minutes
		{"2020-11-10T16:51:38.198+24:00", "zone offset out of range"},
		{"2020-11-10T16:51:38.198+05:60", "zone offset out of range"},
		{"2020-11-10T16:51:38.198+5", "zone hours"},
		{"2020-11-10T16:51:38.198-13:30", "zone -13:30 is outside -13:00..+14:00"}, // Kafka: -13:00
		{"2020-11-10T16:51:38.198+14:30", "outside -13:00..+14:00"},                // Kafka: +14:00
		{"2020-11-10T16:51:38.198-14", "outside -13:00..+14:00"},
		{"2020-11-10T16:51:38.198Zjunk", `unexpected "junk"`}, // Kafka ignores trailing text
		{"2020-11-10T16:51:38.198z", "expected a zone"},
		{"2020-13-10T16:51:38.198", "out of range"},
		{"2020-02-30T16:51:38.198", "day 30 does not exist in 2020-02"},
		{"2021-02-29T00:00:00.000", "day 29 does not exist"},
		{"2020-11-00T00:00:00.000", "day 00 does not exist"},
		{"2020-11-10T24:00:00.000", "out of range"},
		{"2020-11-10T23:60:00.000", "out of range"},
		{"2020-11-10T23:59:60.000", "out of range"}, // no leap seconds, as Java non-lenient
		{"0000-01-01T00:00:00.000", "out of range"},
		{"20-11-10T16:51:38.198", "year"},
		{"2020-1-10T16:51:38.198", "month"},
		{"1969-12-31T23:59:59.999Z", "before 1970"}, // would be ListOffsets' LATEST (-1)
		{"1970-01-01T00:00:00.000+00:01", "before 1970"},
	}
	for _, tc := range tests {
		_, err := Datetime(tc.in)
		if err == nil {
			t.Errorf("Datetime(%q) succeeded, want error with %q", tc.in, tc.why)
			continue
		}
		msg := err.Error()
		for _, want := range []string{tc.why, "yyyy-MM-ddTHH:mm:ss.SSS", `"` + tc.in + `"`} {
			if !strings.Contains(msg, want) {
				t.Errorf("Datetime(%q) error %q lacks %q", tc.in, msg, want)
			}
		}
	}
}

// TestParseDatetimeAgainstKafka holds what a copy of Kafka's Utils.getDateTime
// returned on OpenJDK 17 (epoch ms; -2 = Kafka refused). offsettui must return the
// same instant or refuse — never a different one.
func TestParseDatetimeAgainstKafka(t *testing.T) {
	tests := []struct {
		in      string
		kafka   int64
		refused bool // offsettui refuses on purpose
	}{
		{"2020-11-10T16:51:38.198", 1605027098198, false},
		{"2020-11-10T16:51:38.198Z", 1605027098198, false},
		{"2020-11-10T16:51:38.198+08:00", 1604998298198, false},
		{"2020-11-10T16:51:38.198+0800", 1604998298198, false},
		{"2020-11-10T16:51:38.198+08", 1604998298198, false},
		{"2020-11-10T16:51:38.198-05:30", 1605046898198, false},
		{"2020-11-10T16:51:38.198+0530", 1605009098198, true},  // Kafka: +05:00
		{"2045-10-12T09:34:34.439-13:30", 2391460474439, true}, // Kafka: -13:00
		{"2020-11-10T16:51:38.5", 1605027098005, true},         // Kafka: 5 ms
		{"2020-11-10T16:51:38.0005Z", 1605027098005, true},     // Kafka: 5 ms
		{"2020-11-10T16:51:38.198Zjunk", 1605027098198, true},  // Kafka ignores the rest
		{"2020-1-5T1:2:3.004", 1578186123004, true},            // single digits
		{"1969-12-31T23:59:59.999Z", -1, true},                 // ListOffsets' LATEST
		{"2020-11-10T16:51:38.123000Z", -2, false},             // Kafka refuses, RFC 3339
		{"2020-11-10T16:51:38Z", -2, false},
		{"2020-02-30T00:00:00.000", -2, true},
		{"2020-11-10T23:59:60.000", -2, true},
		{"2020-11-10t16:51:38.198Z", -2, true},
	}
	for _, tc := range tests {
		got, err := Datetime(tc.in)
		switch {
		case tc.refused && err == nil:
			t.Errorf("%q: accepted (%d), want refused", tc.in, got.UnixMilli())
		case !tc.refused && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case err == nil && tc.kafka != -2 && got.UnixMilli() != tc.kafka:
			t.Errorf("%q = %d, Kafka says %d", tc.in, got.UnixMilli(), tc.kafka)
		}
	}
}
