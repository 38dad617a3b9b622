package parse

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Duration reads a duration in Go syntax with days added ("90s", "36h",
// "10d", "6d23h": what HumanDuration writes, a day being 24 h) or ISO-8601 as
// Java's Duration.parse accepts it ("PT36H", "P3D", "-PT1.5S", case-insensitive;
// years, months and weeks are refused as Java does).
func Duration(s string) (time.Duration, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return 0, fmt.Errorf("empty duration")
	}
	body := strings.TrimLeft(in, "+-")
	if len(body) > 0 && (body[0] == 'P' || body[0] == 'p') {
		d, err := parseISODuration(in)
		if err != nil {
			return 0, fmt.Errorf("duration %q: %w (ISO-8601 form: PnDTnHnMn.nS, e.g. PT36H or P3D)", s, err)
		}
		return d, nil
	}
	d, err := parseDays(in)
	if err != nil {
		return 0, fmt.Errorf("duration %q: not a duration like 90s, 36h, 10d or 6d23h, nor ISO-8601 (PT36H, P3D)", s)
	}
	return d, nil
}

// parseDays reads Go's duration syntax with one more unit, d (24 h), anywhere
// among the others: "10d", "6d23h", "1.5d", "-2d12h".
func parseDays(in string) (time.Duration, error) {
	body, sign := in, 1.0
	if body != "" && (body[0] == '-' || body[0] == '+') {
		if body[0] == '-' {
			sign = -1
		}
		body = body[1:]
	}
	isNum := func(c byte) bool { return c >= '0' && c <= '9' || c == '.' }
	var days float64
	var rest strings.Builder
	hasDays := false
	for i := 0; i < len(body); {
		j := i
		for j < len(body) && isNum(body[j]) {
			j++
		}
		k := j
		for k < len(body) && !isNum(body[k]) {
			k++
		}
		if body[j:k] != "d" {
			rest.WriteString(body[i:k])
			i = k
			continue
		}
		v, err := strconv.ParseFloat(body[i:j], 64)
		if err != nil || j == i {
			return 0, fmt.Errorf("bad number of days %q", body[i:j])
		}
		days, hasDays, i = days+v, true, k
	}
	if !hasDays {
		return time.ParseDuration(in)
	}
	var d time.Duration
	if rest.Len() > 0 {
		var err error
		if d, err = time.ParseDuration(rest.String()); err != nil {
			return 0, err
		}
	}
	total := days*24*float64(time.Hour) + float64(d)
	if total >= math.MaxInt64 {
		return 0, fmt.Errorf("too long")
	}
	return time.Duration(sign * math.Round(total)), nil
}

func parseISODuration(s string) (time.Duration, error) {
	neg := false
	switch {
	case strings.HasPrefix(s, "-"):
		neg, s = true, s[1:]
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	s = strings.ToUpper(s)
	if !strings.HasPrefix(s, "P") {
		return 0, fmt.Errorf("missing P")
	}
	s = s[1:]
	datePart, timePart, hasT := strings.Cut(s, "T")
	if hasT && timePart == "" {
		return 0, fmt.Errorf("T with no time")
	}
	if datePart == "" && timePart == "" {
		return 0, fmt.Errorf("no components")
	}
	var total float64
	var err error
	if total, err = addComponents(datePart, map[byte]float64{'D': 24 * 3600}, "D"); err != nil {
		return 0, err
	}
	t, err := addComponents(timePart, map[byte]float64{'H': 3600, 'M': 60, 'S': 1}, "HMS")
	if err != nil {
		return 0, err
	}
	total += t
	ns := total * 1e9
	if ns >= math.MaxInt64 {
		return 0, fmt.Errorf("too long")
	}
	d := time.Duration(math.Round(ns))
	if neg {
		d = -d
	}
	return d, nil
}

// addComponents sums "3H20M1.5S"-style components in the given unit order.
func addComponents(s string, unit map[byte]float64, order string) (float64, error) {
	var total float64
	next := 0
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
		if i <= 0 {
			return 0, fmt.Errorf("expected a number before a unit in %q", s)
		}
		num, u := s[:i], s[i]
		pos := strings.IndexByte(order[next:], u)
		if pos < 0 {
			return 0, fmt.Errorf("unexpected unit %q", string(u))
		}
		next += pos + 1
		if u != 'S' && strings.Contains(num, ".") {
			return 0, fmt.Errorf("only seconds may have a fraction")
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || strings.ContainsAny(num, "eE+-") || math.IsInf(v, 0) || math.IsNaN(v) {
			return 0, fmt.Errorf("bad number %q", num)
		}
		total += v * unit[u]
		s = s[i+1:]
	}
	return total, nil
}
