package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// ParseDuration reads a duration in Go syntax ("90s", "36h") or ISO-8601 as Java's
// Duration.parse accepts it ("PT36H", "P3D", "-PT1.5S", case-insensitive; days are
// 24 h; years, months and weeks are refused as Java does).
func ParseDuration(s string) (time.Duration, error) {
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
	d, err := time.ParseDuration(in)
	if err != nil {
		return 0, fmt.Errorf("duration %q: not a Go duration (90s, 36h) nor ISO-8601 (PT36H, P3D)", s)
	}
	return d, nil
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
