package kafka_test

// The kafka-specific helpers of the tests against a real Apache Kafka broker
// (realkafka_test.go): the describe-parity rows of ConsumerGroupCommand. Finding
// the broker, names, seeding, live members and running Kafka's CLI are in
// internal/testsupport/realkafka.

import (
	"strconv"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// cliRow is one partition row of ConsumerGroupCommand --describe.
type cliRow struct {
	group, topic         string
	partition            int32
	current, logEnd, lag *int64 // nil for "-"
}

func (r cliRow) tp() model.TP { return model.TP{Topic: r.topic, Partition: r.partition} }

// describeRows parses the offsets table of ConsumerGroupCommand --describe.
func describeRows(t *testing.T, out string) []cliRow {
	t.Helper()
	var rows []cliRow
	for _, m := range realkafka.TableRows(out, "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG") {
		p, err := strconv.ParseInt(m["PARTITION"], 10, 32)
		if err != nil {
			t.Fatalf("ConsumerGroupCommand row %v: partition: %v", m, err)
		}
		r := cliRow{group: m["GROUP"], topic: m["TOPIC"], partition: int32(p)}
		for _, c := range []struct {
			col string
			dst **int64
		}{{"CURRENT-OFFSET", &r.current}, {"LOG-END-OFFSET", &r.logEnd}, {"LAG", &r.lag}} {
			v := m[c.col]
			if v == "-" {
				continue
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("ConsumerGroupCommand row %v: %s: %v", m, c.col, err)
			}
			*c.dst = model.Ptr(n)
		}
		rows = append(rows, r)
	}
	return rows
}

// cgcDescribe runs ConsumerGroupCommand --describe for the groups and parses its
// offsets table.
func cgcDescribe(t *testing.T, addr string, groups ...string) []cliRow {
	t.Helper()
	return describeRows(t, realkafka.DescribeOutput(t, addr, nil, groups...))
}

func fmtInt64(p *int64) string {
	if p == nil {
		return "null"
	}
	return strconv.FormatInt(*p, 10)
}

func sameInt64(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}
