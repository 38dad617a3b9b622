package check

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestSummaryNamesTheMostUrgentCause: of several failing partitions the verdict line names
// one that already lost records, else the one with the soonest deadline (the one the result's
// deadlineMs is), not the first in topic order.
func TestSummaryNamesTheMostUrgentCause(t *testing.T) {
	fail := func(p int32, deadline, lost *int64, msg string) Partition {
		return Partition{Topic: "t", Partition: p, Result: VerdictFail, DeadlineMs: deadline, Lost: lost,
			Reasons: []Reason{{Code: CodeAtRisk, Result: VerdictFail, Message: msg}}}
	}
	for _, c := range []struct {
		name  string
		parts []Partition
		want  string
	}{
		{"the soonest deadline", []Partition{fail(0, model.Ptr[int64](3_600_000), nil, "in 1h"), fail(1, model.Ptr[int64](60_000), nil, "in 1m"), fail(2, nil, nil, "unknown")}, "t-1 "},
		{"already lost before any deadline", []Partition{fail(0, model.Ptr[int64](60_000), nil, "in 1m"), fail(1, nil, model.Ptr[int64](5), "lost 5")}, "t-1 "},
		{"none has one: topic order", []Partition{fail(0, nil, nil, "a"), fail(1, nil, nil, "b")}, "t-0 "},
	} {
		r := Result{Group: "g", Partitions: c.parts}
		r.finish()
		if _, cause, _ := strings.Cut(r.Summary, "("); !strings.HasPrefix(cause, c.want) {
			t.Errorf("%s: %q, want the cause of %s", c.name, r.Summary, c.want)
		}
	}
}
