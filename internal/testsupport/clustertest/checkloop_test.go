package clustertest

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/check"
)

// checking is `offsettui check` of one static group run again and again until stop.
type checking struct {
	stop     chan struct{}
	done     chan struct{}
	mu       sync.Mutex
	verdicts map[check.Verdict]int
	unread   int // checks that met a partition they could not read
}

// checkAgain runs `check --group group --topic topic` until stop. A PASS must have read
// every partition of the topic (worldPartitions) and found it equal to the truth
// (committed as want, low 0, high staticRecords); a partition that could not be read
// must keep the proof from passing.
func checkAgain(t *testing.T, boot, group, topic string, want map[model.TP]int64) *checking {
	ck := &checking{stop: make(chan struct{}), done: make(chan struct{}), verdicts: map[check.Verdict]int{}}
	go func() {
		defer close(ck.done)
		for {
			select {
			case <-ck.stop:
				return
			default:
			}
			code, out, errs := run(t, "check", "--bootstrap-server", boot, "--timeout", "3s", "--group", group, "--topic", topic, "-o", "json")
			var r check.Result
			if err := json.Unmarshal(out, &r); err != nil {
				t.Errorf("check printed no JSON (exit %d): %v\n%s%s", code, err, out, errs)
				return
			}
			for _, p := range ck.judge(r, want) {
				t.Errorf("check taken %s, %s: %s", r.TakenAt.Format("15:04:05.000"), r.Verdict, p)
			}
			if code != r.ExitCode {
				t.Errorf("check exit %d, its JSON says %d", code, r.ExitCode)
			}
			select {
			case <-ck.stop:
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(ck.end)
	return ck
}

func (ck *checking) judge(r check.Result, want map[model.TP]int64) []string {
	ck.mu.Lock()
	defer ck.mu.Unlock()
	ck.verdicts[r.Verdict]++
	for _, p := range r.Partitions {
		if p.Error != nil || p.Status == model.StatusUnknown {
			ck.unread++
			break
		}
	}
	if r.Verdict != check.VerdictPass {
		return nil
	}
	var bad []string
	if len(r.Partitions) != worldPartitions {
		bad = append(bad, fmt.Sprintf("%d partitions, the topic has %d", len(r.Partitions), worldPartitions))
	}
	for _, p := range r.Partitions {
		c := want[tpOf(p.Topic, p.Partition)]
		if p.Error != nil || p.Status == model.StatusUnknown || p.Low == nil || *p.Low != 0 || p.High == nil || *p.High != staticRecords ||
			p.Committed == nil || *p.Committed != c {
			bad = append(bad, fmt.Sprintf("%s-%d: status %s low %s high %s committed %s error %v; truth 0, %d, %d", p.Topic, p.Partition,
				p.Status, fmtInt(p.Low), fmtInt(p.High), fmtInt(p.Committed), p.Error, staticRecords, c))
		}
	}
	return bad
}

// end stops the checks and waits for the one running.
func (ck *checking) end() {
	select {
	case <-ck.stop:
	default:
		close(ck.stop)
	}
	<-ck.done
}

// report ends the checks and logs their verdicts; it fails the test when none passed or
// one failed (the group is whole and caught up to its commits).
func (ck *checking) report(t *testing.T) {
	t.Helper()
	ck.end()
	ck.mu.Lock()
	defer ck.mu.Unlock()
	t.Logf("checks: %d PASS, %d INCOMPLETE (%d with a partition unread), %d FAIL", ck.verdicts[check.VerdictPass],
		ck.verdicts[check.VerdictIncomplete], ck.unread, ck.verdicts[check.VerdictFail])
	if ck.verdicts[check.VerdictPass] == 0 || ck.verdicts[check.VerdictFail] > 0 {
		t.Errorf("checks by verdict %v; want passes and no FAIL", ck.verdicts)
	}
}
