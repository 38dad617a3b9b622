package plan

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model/parse"
)

// The values of a strategy as Kafka's tools read them: offsettui takes more forms ("1h",
// "6d23h", RFC 3339) than GroupOffsetsResetter does (java.time.Duration.parse for
// --by-duration, Utils.getDateTime's "yyyy-MM-dd'T'HH:mm:ss.SSSXXX" for --to-datetime), so
// the equivalent command writes each value in the one form both read alike.

// KafkaDuration writes d (≥ 0) as ISO-8601 the way java.time.Duration.parse reads it back
// exactly: "PT1H", "P6DT23H", "PT1.5S", "PT0S". A day is 24 hours in both.
func KafkaDuration(d time.Duration) string {
	if d <= 0 {
		return "PT0S"
	}
	day := 24 * time.Hour
	days, d := d/day, d%day
	hours, d := d/time.Hour, d%time.Hour
	minutes, d := d/time.Minute, d%time.Minute
	secs, nanos := d/time.Second, d%time.Second
	var b strings.Builder
	b.WriteByte('P')
	if days > 0 {
		fmt.Fprintf(&b, "%dD", days)
	}
	if hours == 0 && minutes == 0 && secs == 0 && nanos == 0 {
		return b.String()
	}
	b.WriteByte('T')
	if hours > 0 {
		fmt.Fprintf(&b, "%dH", hours)
	}
	if minutes > 0 {
		fmt.Fprintf(&b, "%dM", minutes)
	}
	if secs > 0 || nanos > 0 {
		b.WriteString(strconv.FormatInt(int64(secs), 10))
		if nanos > 0 {
			b.WriteString(strings.TrimRight(fmt.Sprintf(".%09d", nanos), "0"))
		}
		b.WriteByte('S')
	}
	return b.String()
}

// KafkaDatetime writes t as --to-datetime reads it: UTC, milliseconds, zone Z
// ("2026-11-29T08:00:00.000Z"). Record timestamps have no finer part.
func KafkaDatetime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000") + "Z"
}

// kafkaValue is the value of st's flag in Kafka's form; ok is false when Raw does not parse
// (a strategy read back from JSON that was never checked), and Raw is used as it is.
func kafkaValue(st Strategy) (string, bool) {
	v := strings.TrimSpace(st.Raw)
	switch st.Kind {
	case ToOffset, ShiftBy:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return st.Raw, false
		}
		return strconv.FormatInt(n, 10), true
	case ByDuration:
		d, err := parse.Duration(v)
		if err != nil || d < 0 {
			return st.Raw, false
		}
		return KafkaDuration(d), true
	case ToDatetime:
		t, err := parse.Datetime(v)
		if err != nil {
			return st.Raw, false
		}
		return KafkaDatetime(t), true
	}
	return st.Raw, true
}
