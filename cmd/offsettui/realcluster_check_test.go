package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/realcluster"
	"github.com/offsettui/offsettui/internal/realkafka"
)

// TestRealClusterCheckDuringLeaderElections: `check` runs again and again while the
// leadership of every partition of the checked topic moves (six preferred elections),
// and while the leader of one of its partitions is dead (kill -9) until it is fenced.
// A group caught up on all three partitions passes only when every partition's
// low, high and committed offset were read and equal the truth; a partition that could
// not be read makes the proof incomplete, never PASS.
func TestRealClusterCheckDuringLeaderElections(t *testing.T) {
	c := realcluster.Get(t)
	seed := realkafka.NewSeed(t, c.Bootstrap)
	topic, group := realkafka.Name("ck"), realkafka.Name("ck-g")
	c.CreateTopic(topic, 3, nil)
	commits := map[model.TP]int64{}
	for p := range int32(3) {
		seed.ProduceN(topic, p, 20, func(int) time.Time { return time.Now() })
		commits[tpOf(topic, p)] = 20
	}
	seed.Commit(group, commits)
	var (
		mu       sync.Mutex
		verdicts = map[model.Verdict]int{}
		unread   int // checks that met a partition they could not read
		stop     = make(chan struct{})
		done     = make(chan struct{})
	)
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			var out, errb bytes.Buffer
			code := checkMain([]string{"--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--group", group, "--topic", topic,
				"-o", "json"}, &out, &errb)
			var r model.CheckResult
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Errorf("check printed no JSON (exit %d): %v\n%s%s", code, err, out.String(), errb.String())
				return
			}
			mu.Lock()
			verdicts[r.Verdict]++
			mu.Unlock()
			if code != r.ExitCode {
				t.Errorf("check exit %d, its JSON says %d", code, r.ExitCode)
			}
			for _, p := range r.Partitions {
				if p.Error != nil || p.Status == model.StatusUnknown {
					mu.Lock()
					unread++
					mu.Unlock()
					break
				}
			}
			if r.Verdict != model.VerdictPass {
				continue
			}
			if len(r.Partitions) != 3 {
				t.Errorf("PASS with %d partitions, the topic has 3", len(r.Partitions))
			}
			for _, p := range r.Partitions {
				if p.Error != nil || p.Status == model.StatusUnknown || p.Low == nil || *p.Low != 0 || p.High == nil || *p.High != 20 ||
					p.Committed == nil || *p.Committed != 20 {
					t.Errorf("PASS with %s-%d: status %s low %s high %s committed %s error %v; truth 0, 20, 20", p.Topic, p.Partition,
						p.Status, fmtInt(p.Low), fmtInt(p.High), fmtInt(p.Committed), p.Error)
				}
			}
		}
	}()
	moved := 0
	for range 6 {
		moved += c.MoveLeaders(topic)
		moved += c.MoveLeaders("__consumer_offsets")
	}
	// The leader of partition 0, not the group's coordinator, dies: until the controller
	// fences it (3 s), the partition has a leader that cannot answer.
	leader := c.Leader(topic, 0)
	for c.Coordinator(group) == leader {
		moved += c.MoveLeaders("__consumer_offsets")
	}
	c.Kill(leader)
	time.Sleep(6 * time.Second)
	c.Start(leader)
	close(stop)
	<-done
	mu.Lock()
	defer mu.Unlock()
	t.Logf("went through %s (%d partitions moved); checks: %d PASS, %d INCOMPLETE (%d with a partition unread), %d FAIL", c.Tally(), moved,
		verdicts[model.VerdictPass], verdicts[model.VerdictIncomplete], unread, verdicts[model.VerdictFail])
	if verdicts[model.VerdictPass] == 0 || verdicts[model.VerdictFail] > 0 {
		t.Errorf("checks by verdict %v; want passes and no FAIL (the group is caught up)", verdicts)
	}
	if unread == 0 {
		t.Errorf("no check met a partition it could not read: the dead leader was not seen")
	}
}

// TestRealClusterControllerFailover: the active KRaft controller is killed (kill -9; its
// node is a broker too) while `describe --watch` runs every 500 ms and one-shot
// describes follow one another: every describe exits 0 and every number is the truth
// or marked unknown, while a new controller is elected and the node comes back. A
// one-shot describe cannot know the groups of the dead node's ListGroups, and says so;
// the watch, which listed them before, keeps them.
func TestRealClusterControllerFailover(t *testing.T) {
	c := realcluster.Get(t)
	w := newClusterWorld(t, c, "ctl")
	tr := w.startTruth(t)
	var log watchLog
	watching := watch(t, log.add, "--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--interval", "500ms",
		"--topic", w.static, "--topic", w.live)
	realkafka.WaitUntil(t, 30*time.Second, "the watch's first snapshots", func() (bool, string) {
		log.mu.Lock()
		defer log.mu.Unlock()
		return len(log.snaps) >= 2, fmt.Sprintf("%d snapshots", len(log.snaps))
	})
	_, controller := c.Controller()
	c.Kill(controller)
	var once []model.Snapshot
	var at []time.Time
	for range 5 {
		code, snap, errs := describeJSON(t, "--bootstrap-server", c.Bootstrap, "--timeout", "3s", "--topic", w.static, "--topic", w.live)
		if code != exitOK {
			t.Errorf("describe during the controller failover: exit %d: %s", code, errs)
		}
		once, at = append(once, snap), append(at, time.Now())
	}
	epoch, newController := c.Controller()
	c.Start(controller)
	c.WaitInSync(true)
	watching.stop()
	time.Sleep(300 * time.Millisecond) // the truth read after the last snapshot
	t.Logf("controller %d killed, %d elected (quorum epoch %d); went through %s", controller, newController, epoch, c.Tally())
	if newController == controller || c.Tally().ControllerElections == 0 {
		t.Errorf("no new controller elected (%d before, %d after)", controller, newController)
	}
	if watching.exitedEarly || watching.code != exitOK {
		t.Errorf("the watch exited by itself (exit %d): %s", watching.code, watching.stderr.String())
	}
	log.judgeAll(t, w, tr, "500ms")
	for i, s := range once {
		for _, p := range w.judge(tr, s, s.Cluster.TakenAt.Time, at[i], nil).problems {
			t.Errorf("one-shot describe %d: %s", i, p)
		}
	}
}
