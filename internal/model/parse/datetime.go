package parse

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// DatetimeForm describes what Datetime accepts; error messages end with it.
const DatetimeForm = "expected yyyy-MM-ddTHH:mm:ss.SSS with an optional zone (Z, +01:00, +0100, +01; UTC when absent) " +
	"or RFC 3339, e.g. 2026-11-29T08:00:00.000 or 2026-11-29T08:00:00Z"

// Datetime reads a --to-datetime value. It accepts what Kafka's
// kafka-consumer-groups accepts (Utils.getDateTime: SimpleDateFormat
// "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", then "...SSSX", with "Z" appended when no zone is
// given) and RFC 3339, and refuses every input the two would read differently:
//
//   - a fraction of one or two digits: Kafka reads ".5" as 5 ms, RFC 3339 as 500 ms;
//   - a fraction with non-zero digits past the third: Kafka reads ".0005" as 5 ms, and
//     record timestamps have no sub-millisecond part anyway;
//   - a zone "+hhmm" with non-zero minutes: Kafka's fallback pattern "X" reads only
//     "+hh" and silently drops the rest, so "+0530" means +05:00 there;
//   - a zone outside -13:00..+14:00: Java's calendar refuses it and Kafka's fallback
//     reads "-13:30" as -13:00;
//   - text after the zone, which Kafka ignores;
//   - a time before 1970: it becomes a negative timestamp, and ListOffsets treats
//     -1, -2, -3 as "latest", "earliest", "max timestamp".
//
// Seconds are required, the fraction is optional (RFC 3339); fields have exactly
// two digits (four for the year). The result is in UTC.
func Datetime(s string) (time.Time, error) {
	t, err := parseDatetime(strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, fmt.Errorf("datetime %q: %s; %s", s, err, DatetimeForm)
	}
	return t, nil
}

// dtScanner walks a datetime string left to right.
type dtScanner struct {
	s   string
	pos int
}

func (p *dtScanner) digits(n int, what string) (int, error) {
	if p.pos+n > len(p.s) {
		return 0, fmt.Errorf("%s: expected %d digits at the end", what, n)
	}
	v := 0
	for i := 0; i < n; i++ {
		c := p.s[p.pos+i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%s: expected %d digits at position %d, found %q", what, n, p.pos+1, p.s[p.pos:p.pos+n])
		}
		v = v*10 + int(c-'0')
	}
	p.pos += n
	return v, nil
}

func (p *dtScanner) literal(c byte, what string) error {
	if p.pos >= len(p.s) {
		return fmt.Errorf("expected %q (%s) at the end", c, what)
	}
	if p.s[p.pos] != c {
		return fmt.Errorf("expected %q (%s) at position %d, found %q", c, what, p.pos+1, p.s[p.pos])
	}
	p.pos++
	return nil
}

func (p *dtScanner) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func parseDatetime(s string) (time.Time, error) {
	p := &dtScanner{s: s}
	var f [6]int // year, month, day, hour, minute, second
	steps := []struct {
		n    int
		what string
		sep  byte
		sepW string
	}{
		{4, "year", '-', "date separator"}, {2, "month", '-', "date separator"},
		{2, "day", 'T', "date/time separator"}, {2, "hour", ':', "time separator"},
		{2, "minute", ':', "time separator"}, {2, "second", 0, ""},
	}
	for i, st := range steps {
		v, err := p.digits(st.n, st.what)
		if err != nil {
			return time.Time{}, err
		}
		f[i] = v
		if st.sep != 0 {
			if err := p.literal(st.sep, st.sepW); err != nil {
				return time.Time{}, err
			}
		}
	}
	ms, err := p.fraction()
	if err != nil {
		return time.Time{}, err
	}
	loc, err := p.zone()
	if err != nil {
		return time.Time{}, err
	}
	if p.pos != len(s) {
		return time.Time{}, fmt.Errorf("unexpected %q after the time", s[p.pos:])
	}
	if f[0] < 1 || f[1] < 1 || f[1] > 12 || f[3] > 23 || f[4] > 59 || f[5] > 59 {
		return time.Time{}, fmt.Errorf("field out of range")
	}
	t := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], ms*int(time.Millisecond), loc)
	if f[2] < 1 || t.Day() != f[2] {
		return time.Time{}, fmt.Errorf("day %02d does not exist in %04d-%02d", f[2], f[0], f[1])
	}
	if t.Before(time.Unix(0, 0)) {
		return time.Time{}, fmt.Errorf("before 1970-01-01T00:00:00Z: Kafka timestamps cannot be negative")
	}
	if t.UTC().Year() > 9999 {
		return time.Time{}, fmt.Errorf("after 9999-12-31T23:59:59.999Z")
	}
	return t.UTC(), nil
}

// fraction reads an optional ".SSS" and returns milliseconds.
func (p *dtScanner) fraction() (int, error) {
	if p.peek() != '.' {
		return 0, nil
	}
	p.pos++
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	frac := p.s[start:p.pos]
	switch {
	case len(frac) == 0:
		return 0, fmt.Errorf("expected digits after '.'")
	case len(frac) < 3:
		kafka, _ := strconv.Atoi(frac)
		rfc, _ := strconv.Atoi((frac + "00")[:3])
		return 0, fmt.Errorf("fraction %q is ambiguous (Kafka reads %d ms, RFC 3339 %d ms): write three digits, .%03d or .%03d",
			"."+frac, kafka, rfc, rfc, kafka)
	case len(frac) > 9:
		return 0, fmt.Errorf("fraction %q has more than 9 digits", "."+frac)
	case strings.Trim(frac[3:], "0") != "":
		return 0, fmt.Errorf("fraction %q is finer than a millisecond, the precision of Kafka timestamps", "."+frac)
	}
	ms := int(frac[0]-'0')*100 + int(frac[1]-'0')*10 + int(frac[2]-'0')
	return ms, nil
}

// zone reads an optional zone: Z, ±hh:mm, ±hhmm (minutes 00 only) or ±hh.
func (p *dtScanner) zone() (*time.Location, error) {
	c := p.peek()
	switch c {
	case 0:
		return time.UTC, nil
	case 'Z':
		p.pos++
		return time.UTC, nil
	case '+', '-':
	default:
		return nil, fmt.Errorf("unexpected %q at position %d: expected a zone (Z, +01:00) or the end", c, p.pos+1)
	}
	start := p.pos
	p.pos++
	hh, err := p.digits(2, "zone hours")
	if err != nil {
		return nil, err
	}
	mm := 0
	switch {
	case p.peek() == ':':
		p.pos++
		if mm, err = p.digits(2, "zone minutes"); err != nil {
			return nil, err
		}
	case p.peek() >= '0' && p.peek() <= '9':
		if mm, err = p.digits(2, "zone minutes"); err != nil {
			return nil, err
		}
		if mm != 0 {
			return nil, fmt.Errorf("zone %c%02d%02d: Kafka reads it as %c%02d:00 (it drops the minutes); write %c%02d:%02d",
				c, hh, mm, c, hh, c, hh, mm)
		}
	}
	if hh > 23 || mm > 59 {
		return nil, fmt.Errorf("zone offset out of range")
	}
	off := (hh*60 + mm) * 60
	if c == '-' {
		off = -off
	}
	// Java's Calendar refuses offsets outside -13:00..+14:00; Kafka then falls back
	// to "X", which reads -13:30 as -13:00.
	if off < -13*3600 || off > 14*3600 {
		return nil, fmt.Errorf("zone %s is outside -13:00..+14:00, the offsets Kafka reads correctly", p.s[start:p.pos])
	}
	return time.FixedZone("", off), nil
}
