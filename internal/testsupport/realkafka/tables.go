package realkafka

// Reading the tables Kafka's group tools print.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TableRows returns the rows of every table in out whose header names all cols,
// as maps from column name to value. Only lines with exactly the header's number of
// fields are rows, so "Error:"/"Warn:" lines, notes and blank lines are left out. Kafka
// 3.9's kafka-consumer-groups --reset-offsets prints its header and rows on one line (no line
// breaks): the fields after such a header are read as rows of the header's width.
func TableRows(out string, cols ...string) []map[string]string {
	var header []string
	var rows []map[string]string
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if hasAll(f, cols) {
			n := 0
			for n < len(f) && columnName.MatchString(f[n]) {
				n++
			}
			header = f[:n]
			for rest := f[n:]; len(rest) >= n && n > 0; rest = rest[n:] {
				row := make(map[string]string, n)
				for i, h := range header {
					row[h] = rest[i]
				}
				rows = append(rows, row)
			}
			continue
		}
		if header == nil || len(f) != len(header) || strings.HasSuffix(f[0], ":") {
			continue
		}
		row := make(map[string]string, len(f))
		for i, h := range header {
			row[h] = f[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// columnName is a word of the group tools' table headers (GROUP, NEW-OFFSET, #MEMBERS, and
// the (ID) of COORDINATOR (ID), which its rows fill as a field of its own: "(1)").
var columnName = regexp.MustCompile(`^(#?[A-Z][A-Z-]*|\(ID\))$`)

func hasAll(fields, cols []string) bool {
	for _, c := range cols {
		found := false
		for _, f := range fields {
			found = found || f == c
		}
		if !found {
			return false
		}
	}
	return true
}

// Offsets maps group → partition → offset, as Kafka's CLI prints them.
type Offsets map[string]map[model.TP]int64

// Describe runs ConsumerGroupCommand --describe for the groups and returns each
// partition's CURRENT-OFFSET (partitions shown with "-" are left out, as are
// partitions without a commit, which Kafka does not show for an inactive group).
func Describe(t testing.TB, addr string, groups ...string) Offsets {
	t.Helper()
	return offsetRows(t, DescribeOutput(t, addr, nil, groups...), "CURRENT-OFFSET", groups)
}

// DescribeOutput runs ConsumerGroupCommand --describe for the groups with extra
// flags (e.g. --members) and returns its stdout.
func DescribeOutput(t testing.TB, addr string, extra []string, groups ...string) string {
	t.Helper()
	args := append([]string{"--bootstrap-server", addr, "--describe"}, extra...)
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	return Tool(t, ConsumerGroupCommand, args...)
}

// ResetDryRun runs ConsumerGroupCommand --reset-offsets ... --dry-run for the
// groups with the given scope and strategy flags and returns its NEW-OFFSET rows.
func ResetDryRun(t testing.TB, addr string, flags []string, groups ...string) Offsets {
	t.Helper()
	out, _ := ResetDryRunWith(t, ConsumerGroupCommand, addr, flags, groups...)
	return out
}

// ResetDryRunWith is ResetDryRun with another group tool's main class
// (ShareGroupCommand, StreamsGroupCommand); it also returns the tool's stdout, whose
// "Error:" lines say why it planned nothing.
func ResetDryRunWith(t testing.TB, main, addr string, flags []string, groups ...string) (Offsets, string) {
	t.Helper()
	args := []string{"--bootstrap-server", addr, "--reset-offsets", "--dry-run"}
	for _, g := range groups {
		args = append(args, "--group", g)
	}
	out := Tool(t, main, append(args, flags...)...)
	return offsetRows(t, out, "NEW-OFFSET", groups), out
}

func offsetRows(t testing.TB, out, col string, groups []string) Offsets {
	t.Helper()
	res := Offsets{}
	for _, g := range groups {
		res[g] = map[model.TP]int64{}
	}
	for _, m := range TableRows(out, "GROUP", "TOPIC", "PARTITION", col) {
		p, err := strconv.ParseInt(m["PARTITION"], 10, 32)
		if err != nil {
			t.Fatalf("ConsumerGroupCommand row %v: partition: %v", m, err)
		}
		if m[col] == "-" {
			continue
		}
		n, err := strconv.ParseInt(m[col], 10, 64)
		if err != nil {
			t.Fatalf("ConsumerGroupCommand row %v: %s: %v", m, col, err)
		}
		if res[m["GROUP"]] == nil {
			t.Fatalf("ConsumerGroupCommand row %v: a group that was not asked for", m)
		}
		res[m["GROUP"]][model.TP{Topic: m["TOPIC"], Partition: int32(p)}] = n
	}
	return res
}
