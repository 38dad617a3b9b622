package plan

import (
	"math/big"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model/parse"
)

// javaDurationPattern is what java.time.Duration.parse matches (JDK 17, case-insensitive),
// which also refuses a "T" with no time part after it.
var javaDurationPattern = regexp.MustCompile(`(?i)^([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?$`)

// kafkaDatetimePattern is the one form KafkaDatetime writes: Utils.getDateTime's
// "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" with the zone Z.
var kafkaDatetimePattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z$`)

// checkKafkaDuration: KafkaDuration(d) is what Java's Duration.parse matches, with a
// component, and reads back as d, to the nanosecond.
func checkKafkaDuration(t *testing.T, d time.Duration) string {
	t.Helper()
	iso := KafkaDuration(d)
	m := javaDurationPattern.FindStringSubmatch(iso)
	if m == nil || m[3] == "T" || m[2] == "" && m[3] == "" {
		t.Fatalf("KafkaDuration(%v) = %q: java.time.Duration.parse refuses it", d, iso)
	}
	if back := javaDurationNanos(m); back.Cmp(big.NewInt(int64(d))) != 0 {
		t.Fatalf("KafkaDuration(%v) = %q reads back as %v ns", d, iso, back)
	}
	return iso
}

// javaDurationNanos is what Duration.parse makes of a match of javaDurationPattern, in
// nanoseconds, exactly (a day is 86,400 s; the fraction has up to nine digits).
func javaDurationNanos(m []string) *big.Int {
	total := new(big.Int)
	add := func(num string, unit int64) {
		if num == "" {
			return
		}
		n, _ := new(big.Int).SetString(strings.TrimPrefix(num, "+"), 10)
		total.Add(total, n.Mul(n, big.NewInt(unit)))
	}
	add(m[2], 86400e9)
	add(m[4], 3600e9)
	add(m[5], 60e9)
	add(m[6], 1e9)
	if m[7] != "" {
		add((m[7] + "000000000")[:9], 1)
	}
	if m[1] == "-" {
		total.Neg(total)
	}
	return total
}

func TestKafkaDuration(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
	}{
		{"1h", "PT1H"}, {"PT1H", "PT1H"}, {"6d23h", "P6DT23H"}, {"P3D", "P3D"}, {"90m", "PT1H30M"}, {"1.5s", "PT1.5S"},
		{"1ns", "PT0.000000001S"}, {"0s", "PT0S"}, {"24h", "P1D"}, {"25h0m1.25s", "P1DT1H1.25S"}, {"pt36h", "P1DT12H"},
	} {
		d, err := parse.Duration(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := checkKafkaDuration(t, d); got != c.want {
			t.Errorf("%q: KafkaDuration = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKafkaDatetime(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"2026-11-29T08:00:00Z", "2026-11-29T08:00:00.000Z"},
		{"2026-11-29T09:30:00.250+01:00", "2026-11-29T08:30:00.250Z"},
		{"2026-11-29T08:00:00.123", "2026-11-29T08:00:00.123Z"},
	} {
		tm, err := parse.Datetime(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := KafkaDatetime(tm); got != c.want {
			t.Errorf("%q: KafkaDatetime = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzKafkaDuration: every duration --by-duration accepts is written in a form Java's
// Duration.parse reads, back to the same duration.
func FuzzKafkaDuration(f *testing.F) {
	for _, s := range []string{"1h", "6d23h", "PT1.5S", "1ns", "0s", "P106751DT23H47M16.854775807S", "2562047h47m16.854775807s", "1.000000001s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parse.Duration(s)
		if err != nil || d < 0 {
			return
		}
		checkKafkaDuration(t, d)
	})
}

// FuzzKafkaDatetime: every time --to-datetime accepts is written in Kafka's one form, back to
// the same instant.
func FuzzKafkaDatetime(f *testing.F) {
	for _, s := range []string{"2026-11-29T08:00:00Z", "2026-11-29T09:30:00.250+01:00", "1970-01-01T00:00:00.000", "9999-12-31T23:59:59.999Z", "2026-03-29T01:59:59.999-13:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := parse.Datetime(s)
		if err != nil {
			return
		}
		out := KafkaDatetime(tm)
		back, err := parse.Datetime(out)
		if !kafkaDatetimePattern.MatchString(out) || err != nil || !back.Equal(tm) {
			t.Fatalf("%q: KafkaDatetime = %q, reads back as %v, %v", s, out, back, err)
		}
	})
}
