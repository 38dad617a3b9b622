package main

// An empty cleanup.policy (Kafka 4.2+, KIP-1161) against a real broker
// (docs/statuses.md#never-deleted-topics): neither delete nor compact, the log is never
// deleted by retention.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
)

// TestRealKafkaEmptyCleanupPolicy: two topics of retention.ms 60000 and segments rolled
// every 5 s of record time, one with cleanup.policy empty, one with the default policy
// (delete), each written with 600 records stamped ten minutes ago, and a group committed at
// 0 on each. The broker (retention checked every second, scripts/kafka.sh) deletes the
// default topic's 600 records and keeps the other's; offsettui shows the kept topic's
// partition OK, with no expires-in and no time to loss, never deleted, and check passes it
// (exit 0); the other group's partition is expired and fails. Kafka 4.0 takes the empty
// policy too and keeps the log the same way (KIP-1161 wrote down in 4.2 what the log
// already did).
func TestRealKafkaEmptyCleanupPolicy(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		emptyCleanupPolicy(t, b)
	})
}

func emptyCleanupPolicy(t *testing.T, b realkafka.Broker) {
	s := b.Seed(t)
	kept, deleted := realkafka.Name("kip1161-empty"), realkafka.Name("kip1161-delete")
	keeper, loser := realkafka.Name("kip1161-keeper"), realkafka.Name("kip1161-loser")
	configs := map[string]*string{"retention.ms": model.Ptr("60000"), "segment.ms": model.Ptr("5000")}
	s.CreateTopic(deleted, 1, configs)
	configs["cleanup.policy"] = model.Ptr("")
	s.CreateTopic(kept, 1, configs)
	// Six batches of 100, each stamped 5 s after the one before: every batch starts a
	// segment (the roll goes by record time), and every record is older than retention.ms.
	t0 := time.Now().Add(-10 * time.Minute)
	for _, topic := range []string{kept, deleted} {
		for i := range 6 {
			s.ProduceN(topic, 0, 100, func(int) time.Time { return t0.Add(time.Duration(i) * 5 * time.Second) })
		}
	}
	s.Commit(keeper, map[model.TP]int64{{Topic: kept, Partition: 0}: 0})
	s.Commit(loser, map[model.TP]int64{{Topic: deleted, Partition: 0}: 0})
	start := time.Now()
	const lowDeleted = 600
	realkafka.WaitUntil(t, time.Minute, "retention deletes the default-policy topic's records", func() (bool, string) {
		low, err := s.StartOffset(deleted, 0)
		if err != nil {
			return false, err.Error()
		}
		return low == lowDeleted, fmt.Sprintf("%s starts at %d", deleted, low)
	})
	lowKept, err := s.StartOffset(kept, 0)
	if err != nil || lowKept != 0 {
		t.Fatalf("%s starts at %d (%v), want 0: the broker deleted records of a topic whose cleanup.policy is empty", kept, lowKept, err)
	}
	t.Logf("%s: log start %d after %s; %s: log start 0", deleted, lowDeleted, time.Since(start).Round(100*time.Millisecond), kept)

	var out, errb bytes.Buffer
	code := describeMain([]string{"--bootstrap-server", b.Addr, "--group", keeper, "--group", loser, "-o", "json"}, &out, &errb)
	if code != exitOK {
		t.Fatalf("describe: exit %d\n%s", code, errb.String())
	}
	if want := `{"topic":"` + kept + `","partitions":1,"cleanupPolicy":"","deletedByRetention":false,"retentionMs":60000,`; !strings.Contains(out.String(), want) {
		t.Errorf("the JSON lacks %s:\n%s", want, out.String())
	}
	if want := `{"topic":"` + deleted + `","partitions":1,"cleanupPolicy":"delete","deletedByRetention":true,`; !strings.Contains(out.String(), want) {
		t.Errorf("the JSON lacks %s:\n%s", want, out.String())
	}
	code, snap, stderr := describeJSON(t, "--bootstrap-server", b.Addr, "--group", keeper, "--group", loser, "--sample", "2s", "--interval", "1s")
	if code != exitOK {
		t.Fatalf("describe --sample: exit %d\n%s", code, stderr)
	}
	k, l := groupOf(t, snap, keeper), groupOf(t, snap, loser)
	if len(k.Partitions) != 1 || len(l.Partitions) != 1 {
		t.Fatalf("partitions: %s %s", asJSON(k.Partitions), asJSON(l.Partitions))
	}
	kp, lp := k.Partitions[0], l.Partitions[0]
	switch {
	case kp.Status != model.StatusOK || kp.Error != nil || model.Deref(kp.Lag) != 600 || kp.ExpiresInMs != nil:
		t.Errorf("%s: status %s, error %v, lag %v, expiresInMs %v; want ok, none, 600, null", kept, kp.Status, kp.Error, text.Num(kp.Lag), text.Num(kp.ExpiresInMs))
	case k.Time == nil || k.Time.Loss != nil || kp.Time == nil || kp.Time.Loss != nil:
		t.Errorf("%s: time to loss %s, want none", keeper, asJSON(k.Time))
	case lp.Status != model.StatusExpired || model.Deref(lp.Lost()) != lowDeleted:
		t.Errorf("%s: status %s, lost %s; want expired, %d", deleted, lp.Status, text.Num(lp.Lost()), lowDeleted)
	}

	out.Reset()
	errb.Reset()
	if code := describeMain([]string{"--bootstrap-server", b.Addr, "--group", keeper}, &out, &errb); code != exitOK ||
		!strings.Contains(out.String(), "topic "+kept+": never deleted (cleanup.policy empty)") || strings.Contains(out.String(), "UNKNOWN") {
		t.Errorf("describe: exit %d, want the topic never deleted and nothing UNKNOWN:\n%s%s", code, out.String(), errb.String())
	}
	code, r := checkJSON(t, b.Addr, "--group", keeper, "--recovery-window", "1h")
	if code != 0 || r.Verdict != check.VerdictPass || !strings.Contains(r.Summary, "never deleted (cleanup.policy empty)") {
		t.Errorf("check --group %s: exit %d, %s, want 0 and PASS", keeper, code, r.Summary)
	}
	if code, r := checkJSON(t, b.Addr, "--group", loser); code != 1 || r.Verdict != check.VerdictFail {
		t.Errorf("check --group %s: exit %d, %s, want 1 and FAIL", loser, code, r.Summary)
	}
}
