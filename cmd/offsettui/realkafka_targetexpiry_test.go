package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaRewindTargetAboutToExpire: a rewind whose target record retention deletes
// within the risk window says so (docs/resets.md): on a topic of retention.ms 2 h whose
// first record was written 1 h 50 min ago, --to-earliest's plan carries a target-expires
// note for that partition, in JSON and as a NOTE line of the table; the same rewind on a
// topic of 30 days carries none. The timestamps are the broker's own (ListOffsets by time
// through the reset service), not the test's.
func TestRealKafkaRewindTargetAboutToExpire(t *testing.T) {
	t.Parallel()
	realkafka.EachVersion(t, func(t *testing.T, b realkafka.Broker) {
		t.Parallel()
		s := b.Seed(t)
		short, long := realkafka.Name("texp-2h"), realkafka.Name("texp-30d")
		s.CreateTopic(short, 1, map[string]*string{"retention.ms": model.Ptr("7200000")})
		s.CreateTopic(long, 1, map[string]*string{"retention.ms": model.Ptr("2592000000")})
		t0 := time.Now().Add(-110 * time.Minute).Truncate(time.Second)
		s.Produce(short, 0, realkafka.Spaced(t0, time.Minute, 10)...)
		s.Produce(long, 0, realkafka.Spaced(t0, time.Minute, 10)...)
		group := realkafka.Name("texp-grp")
		s.Commit(group, map[model.TP]int64{{Topic: short, Partition: 0}: 10, {Topic: long, Partition: 0}: 10})

		conn := []string{"--bootstrap-server", b.Addr, "--group", group, "--to-earliest", "--all-topics"}
		code, p := cliReset(t, conn...)
		if code != exitOK {
			t.Fatalf("dry run: exit %d, blockers %+v", code, p.Blockers)
		}
		var expiring []string
		for _, n := range p.Notes {
			if n.Kind == plan.NoteTargetExpires {
				if n.Topic == nil || n.Partition == nil {
					t.Errorf("note %+v names no partition", n)
					continue
				}
				expiring = append(expiring, *n.Topic)
				if !strings.Contains(n.Message, "retention may delete the target record 0 itself in ") {
					t.Errorf("note %q does not say when the target goes", n.Message)
				}
			}
		}
		if len(expiring) != 1 || expiring[0] != short {
			t.Errorf("target-expires notes on %v, want on %s alone (notes %+v)", expiring, short, p.Notes)
		}

		var out, errOut bytes.Buffer
		if code := resetMain(conn, &out, &errOut); code != exitOK || !strings.Contains(out.String(), "NOTE [target-expires] "+short+"-0: retention may delete the target record 0 itself") {
			t.Errorf("table: exit %d, no NOTE line for %s-0:\n%s%s", code, short, out.String(), errOut.String())
		}
		t.Logf("%s: %+v", b.Name(), p.Notes)
	})
}
