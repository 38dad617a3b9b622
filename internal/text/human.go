package text

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The one copy of every text formatter: the TUI, the tables and the checks all
// write numbers, durations and plurals through these.

// HumanDuration renders a duration in at most two units ("3h12m", "2d4h", "45s",
// "-1h5m"), the form tables and explanations use. parse.Duration reads it back.
func HumanDuration(d time.Duration) string {
	if d < 0 {
		return "-" + HumanDuration(-d)
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return twoUnits(int(d/time.Minute), "m", int(d%time.Minute/time.Second), "s")
	case d < 24*time.Hour:
		return twoUnits(int(d/time.Hour), "h", int(d%time.Hour/time.Minute), "m")
	default:
		return twoUnits(int(d/(24*time.Hour)), "d", int(d%(24*time.Hour)/time.Hour), "h")
	}
}

func twoUnits(a int, au string, b int, bu string) string {
	if b == 0 {
		return strconv.Itoa(a) + au
	}
	return strconv.Itoa(a) + au + strconv.Itoa(b) + bu
}

// HumanMs renders optional milliseconds, "-" when absent.
func HumanMs(ms *int64) string {
	if ms == nil {
		return "-"
	}
	return HumanDuration(time.Duration(*ms) * time.Millisecond)
}

// OrDash renders an empty text as "-", the tables' mark for "none".
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Num renders an optional number, "-" when absent, without separators: the
// form of Kafka's own tools and of machine-readable tables.
func Num(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// AppendNum appends Num(v) to b without allocating a string.
func AppendNum(b []byte, v *int64) []byte {
	if v == nil {
		return append(b, '-')
	}
	return strconv.AppendInt(b, *v, 10)
}

// RateNum renders a number with the precision that matters: "105", "2.5",
// "0.39", "0".
func RateNum(v float64) string {
	if math.Abs(v) < 10 {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', 2, 64), 64) // 0.9996 reads 1.0, not 1
	}
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 10:
		return fmt.Sprintf("%.0f", v)
	case a >= 1:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2g", v)
	}
}

// ShortenMiddle cuts plain text s to w cells (as width measures them) by replacing its
// middle with …, keeping a little more of the end, where names tend to differ
// ("payments-settlement-…-consumer-v2-a"), so names that differ only at their ends stay
// apart. Below 3 cells it keeps the start.
func ShortenMiddle(s string, w int, width func(string) int) string {
	if w <= 0 {
		return ""
	}
	if width(s) <= w {
		return s
	}
	runes := []rune(s)
	if w <= 2 {
		var b strings.Builder
		used := 0
		for _, r := range runes {
			if used+width(string(r)) > w-1 {
				break
			}
			b.WriteRune(r)
			used += width(string(r))
		}
		return b.String() + "…"
	}
	tail := w - 1 - (w-1)*2/5
	end, used := len(runes), 0
	for end > 0 {
		rw := width(string(runes[end-1]))
		if used+rw > tail {
			break
		}
		end--
		used += rw
	}
	head := w - 1 - used // what the tail did not use goes to the head
	var b strings.Builder
	used = 0
	for _, r := range runes[:end] {
		rw := width(string(r))
		if used+rw > head {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + "…" + string(runes[end:])
}

// RateStep is the step RateNum shows v at: 1 from 10 up ("105"), 0.1 from 1 ("2.5"), the
// second significant digit below ("0.39": 0.01).
func RateStep(v float64) float64 {
	a := math.Abs(v)
	switch {
	case a >= 10:
		return 1
	case a >= 1:
		return 0.1
	case a == 0:
		return 0
	}
	return math.Pow(10, math.Floor(math.Log10(a))-1)
}

// FormatRate renders offsets per second in the unit that reads best:
// "105/s", "2.5/s", "0.39/s", "0/s", and per hour or per day below 0.01/s
// ("0.072/h", "1.2/d").
func FormatRate(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0 || a >= 0.01:
		return RateNum(v) + "/s"
	case a*3600 >= 0.01:
		return RateNum(v*3600) + "/h"
	}
	return RateNum(v*86400) + "/d"
}

// Thousands renders n with thousands separators: 1,234,567.
func Thousands[N ~int | ~int32 | ~int64](n N) string {
	s := strconv.FormatInt(int64(n), 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return sign + s
	}
	var b strings.Builder
	b.WriteString(sign)
	head := len(s) % 3
	if head == 0 {
		head = 3
	}
	b.WriteString(s[:head])
	for i := head; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// OptThousands renders an optional number with separators, "-" when absent.
func OptThousands(v *int64) string {
	if v == nil {
		return "-"
	}
	return Thousands(*v)
}

// Plural renders a count with its noun, singular for exactly one: "1 record",
// "0 records", "1,200 partitions". Every noun offsettui counts takes an s.
func Plural[N ~int | ~int32 | ~int64](n N, noun string) string {
	if n == 1 || n == -1 {
		return Thousands(n) + " " + noun
	}
	return Thousands(n) + " " + noun + "s"
}

// AreIs agrees a verb with a count.
func AreIs[N ~int | ~int64](n N) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
