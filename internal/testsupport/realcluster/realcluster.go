// Package realcluster holds the helpers of the tests that bounce the brokers of a
// real three-node Kafka cluster (scripts/kafka.sh cluster): finding the cluster
// (skip, or fail under OFFSETTUI_REQUIRE_KAFKA=1), one test at a time across test
// processes, stopping, killing and starting a node by id through the script,
// waiting until the cluster is in sync again, and counting what a test went
// through (restarts, leader elections, controller elections). Reads go through
// franz-go, never through internal/kafka. Only _test.go files import it.
package realcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

const (
	envBootstrap = "OFFSETTUI_IT_CLUSTER_BOOTSTRAP"
	envNodes     = "OFFSETTUI_IT_CLUSTER_NODES"
	envScript    = "OFFSETTUI_IT_CLUSTER_SCRIPT"
	envState     = "OFFSETTUI_KAFKA_CLUSTER_STATE"
	envRequire   = "OFFSETTUI_REQUIRE_KAFKA"
	startHint    = `start one with scripts/kafka.sh cluster start && eval "$(scripts/kafka.sh cluster env)"`
	// OffsetsPartitions is offsets.topic.num.partitions of the script's cluster.
	OffsetsPartitions = 6
)

// Cluster is the real three-node cluster of one test, held by it alone until it ends.
type Cluster struct {
	t testing.TB
	// Bootstrap is every node's address, comma-separated; Nodes maps node id to address.
	Bootstrap string
	Nodes     map[int32]string
	script    string
	Client    *kgo.Client
	Adm       *kadm.Client

	mu       sync.Mutex
	restarts int
	kills    int
	// epochs are the partitions' leader epochs and the controller quorum's epoch when
	// the test started: elections are counted from them.
	epochs      map[string]int32
	quorumEpoch int32
}

// Get returns the cluster for test t: skipped without OFFSETTUI_IT_CLUSTER_BOOTSTRAP,
// unless OFFSETTUI_REQUIRE_KAFKA=1 (then it fails). It waits for the tests of other
// processes that hold the cluster, then until every node runs and every partition is
// in sync with its preferred leader. When t ends, every node is started again if a
// test left one down, and the lock is released.
func Get(t testing.TB) *Cluster {
	t.Helper()
	realkafka.InBrokerTier(t)
	boot := strings.TrimSpace(os.Getenv(envBootstrap))
	if boot == "" {
		if os.Getenv(envRequire) == "1" {
			t.Fatalf("%s=1 but %s is not set: the cluster tests cannot run (%s)", envRequire, envBootstrap, startHint)
		}
		t.Skipf("%s is not set: three-broker cluster test skipped (%s)", envBootstrap, startHint)
	}
	c := &Cluster{t: t, Bootstrap: boot, Nodes: map[int32]string{}, script: os.Getenv(envScript)}
	for _, kv := range strings.Split(os.Getenv(envNodes), ",") {
		id, addr, ok := strings.Cut(kv, "=")
		n, err := strconv.Atoi(id)
		if !ok || err != nil {
			t.Fatalf("%s=%q: want id=host:port,… (%s)", envNodes, os.Getenv(envNodes), startHint)
		}
		c.Nodes[int32(n)] = addr
	}
	if c.script == "" || len(c.Nodes) != 3 {
		t.Fatalf("%s and %s must name the script and the three nodes (%s)", envScript, envNodes, startHint)
	}
	unlock := lock(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...), kgo.DialTimeout(2*time.Second),
		kgo.RequestTimeoutOverhead(3*time.Second), kgo.MetadataMinAge(100*time.Millisecond))
	if err != nil {
		unlock()
		t.Fatal(err)
	}
	c.Client, c.Adm = cl, kadm.NewClient(cl)
	t.Cleanup(func() {
		c.startAllDown()
		c.WaitInSync(true)
		cl.Close()
		unlock()
	})
	c.startAllDown()
	c.WaitInSync(true)
	c.epochs, c.quorumEpoch = c.leaderEpochs(), c.controllerEpoch()
	c.restarts, c.kills = 0, 0 // what the test itself goes through
	return c
}

// lock holds the cluster for this test across test processes (go test runs
// packages in parallel): an exclusive flock on a file of the cluster's state dir.
func lock(t testing.TB) func() {
	t.Helper()
	dir := os.Getenv(envState)
	if dir == "" {
		dir = os.TempDir()
	}
	f, err := os.OpenFile(filepath.Join(dir, "test.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		t.Fatalf("cluster test lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("cluster test lock: %v", err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}

// run runs scripts/kafka.sh cluster args… and fails the test when it fails.
func (c *Cluster) run(args ...string) {
	c.t.Helper()
	if err := c.runErr(args...); err != nil {
		c.t.Fatal(err)
	}
}

// runErr is run that returns the failure (with the script's output) instead of failing
// the test, so it may run from any goroutine; bounded by 3 minutes.
func (c *Cluster) runErr(args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, c.script, append([]string{"cluster"}, args...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s cluster %s: %v\n%s", c.script, strings.Join(args, " "), err, out)
	}
	return nil
}

// Stop shuts node id down in a controlled way (SIGTERM: its leaderships move first).
func (c *Cluster) Stop(id int32) { c.run("stop-node", fmt.Sprint(id)) }

// Kill kills node id with SIGKILL: its leaderships and coordinators move only once
// the controller fences it (broker.session.timeout.ms, 3 s in the script's cluster).
func (c *Cluster) Kill(id int32) {
	c.run("kill-node", fmt.Sprint(id))
	c.mu.Lock()
	c.kills++
	c.mu.Unlock()
}

// Start starts node id on its data and waits until the cluster's metadata lists it.
func (c *Cluster) Start(id int32) { c.StartNodes(id) }

// StartNodes starts the nodes ids on their data, all before waiting (two of the three
// controllers make a quorum: nodes of a cluster that is down whole come back only
// together), and waits until the cluster's metadata lists each.
func (c *Cluster) StartNodes(ids ...int32) {
	c.t.Helper()
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids { // at once: a node alone exits when it finds no quorum
		wg.Go(func() { errs[i] = c.runErr("start-node", fmt.Sprint(id), "--no-wait") })
	}
	wg.Wait()
	c.mu.Lock()
	c.restarts += len(ids)
	c.mu.Unlock()
	if err := errors.Join(errs...); err != nil {
		c.t.Fatal(err)
	}
	c.waitFor(2*time.Minute, fmt.Sprintf("nodes %v in the metadata", ids), func(ctx context.Context) (bool, string) {
		m, err := c.Adm.BrokerMetadata(ctx)
		if err != nil {
			return false, err.Error()
		}
		listed := m.Brokers.NodeIDs()
		for _, id := range ids {
			if !slices.Contains(listed, id) {
				return false, fmt.Sprintf("brokers %v", listed)
			}
		}
		return true, ""
	})
}

// Running reports whether node id's process runs (the script's status).
func (c *Cluster) Running(id int32) bool {
	out, _ := exec.Command(c.script, "cluster", "status").Output()
	return strings.Contains(string(out), fmt.Sprintf("node %d: running", id))
}

func (c *Cluster) startAllDown() {
	var down []int32
	for id := range c.Nodes {
		if !c.Running(id) {
			c.t.Logf("node %d was down: starting it", id)
			down = append(down, id)
		}
	}
	if len(down) > 0 {
		c.StartNodes(down...)
	}
}

// waitFor calls check every 100 ms until it holds, failing the test after d.
func (c *Cluster) waitFor(d time.Duration, what string, check func(context.Context) (bool, string)) {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ok, why := check(ctx)
		cancel()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("cluster: %s not reached within %s: %s", what, d, why)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// WaitInSync waits until the metadata lists all three brokers and every
// partition (the internal topics too) has a leader and all its replicas in sync;
// with preferred, it then elects the preferred leaders and waits until every
// partition is led by its first replica.
func (c *Cluster) WaitInSync(preferred bool) {
	c.t.Helper()
	elected := false
	c.waitFor(2*time.Minute, "the cluster in sync", func(ctx context.Context) (bool, string) {
		m, err := c.Adm.Metadata(ctx)
		if err != nil {
			return false, err.Error()
		}
		if len(m.Brokers) != len(c.Nodes) {
			return false, fmt.Sprintf("brokers %v", m.Brokers.NodeIDs())
		}
		notPreferred := ""
		for _, td := range m.Topics.Sorted() {
			for _, p := range td.Partitions.Sorted() {
				switch {
				case p.Err != nil || p.Leader < 0:
					return false, fmt.Sprintf("%s-%d: leader %d, %v", td.Topic, p.Partition, p.Leader, p.Err)
				case len(p.ISR) < len(p.Replicas):
					return false, fmt.Sprintf("%s-%d: ISR %v of replicas %v", td.Topic, p.Partition, p.ISR, p.Replicas)
				case preferred && p.Leader != p.Replicas[0] && notPreferred == "":
					notPreferred = fmt.Sprintf("%s-%d: leader %d, preferred %d", td.Topic, p.Partition, p.Leader, p.Replicas[0])
				}
			}
		}
		if notPreferred == "" {
			return true, ""
		}
		if !elected {
			_, _ = c.Adm.ElectLeaders(ctx, kadm.ElectPreferredReplica, nil)
			elected = true
		}
		return false, notPreferred
	})
}

// ElectPreferred runs a preferred leader election on every partition and returns
// how many partitions changed leader.
func (c *Cluster) ElectPreferred() int {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Adm.ElectLeaders(ctx, kadm.ElectPreferredReplica, nil)
	if err != nil {
		c.t.Fatalf("elect preferred leaders: %v", err)
	}
	n := 0
	for _, ps := range res {
		for _, r := range ps {
			if r.Err == nil {
				n++
			}
		}
	}
	return n
}

// Restart stops node id (kill: SIGKILL, else a controlled shutdown), starts it
// again and waits until the cluster is in sync.
func (c *Cluster) Restart(id int32, kill bool) {
	c.t.Helper()
	if kill {
		c.Kill(id)
	} else {
		c.Stop(id)
	}
	c.Start(id)
	c.WaitInSync(false)
}

// CreateTopic creates a topic of n partitions replicated on all three nodes, waits
// until every node's metadata shows each partition with a leader, and deletes it
// when the test ends.
func (c *Cluster) CreateTopic(name string, n int32, configs map[string]*string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := c.Adm.CreateTopic(ctx, n, 3, configs, name); err != nil {
		c.t.Fatalf("create topic %s: %v", name, err)
	}
	c.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = c.Adm.DeleteTopics(ctx, name)
	})
	for id, addr := range c.Nodes {
		cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
		if err != nil {
			c.t.Fatal(err)
		}
		adm := kadm.NewClient(cl)
		c.waitFor(30*time.Second, fmt.Sprintf("topic %s served, as node %d sees it", name, id), func(ctx context.Context) (bool, string) {
			m, err := adm.Metadata(ctx, name)
			if err != nil {
				return false, err.Error()
			}
			td := m.Topics[name]
			if td.Err != nil || len(td.Partitions) != int(n) {
				return false, fmt.Sprintf("%d partitions, %v", len(td.Partitions), td.Err)
			}
			for _, p := range td.Partitions {
				if p.Err != nil || p.Leader < 0 || len(p.ISR) < 3 {
					return false, fmt.Sprintf("partition %d: leader %d ISR %v %v", p.Partition, p.Leader, p.ISR, p.Err)
				}
			}
			return true, ""
		})
		cl.Close()
	}
}

// MoveLeaders moves the leadership of every partition of topics (group coordinators
// when topics holds __consumer_offsets) without a restart: each partition's replicas are
// reordered (the same brokers, so no data moves), which makes the next one its
// preferred leader, and a preferred leader election follows. It waits until every
// partition is led by its new preferred replica and in sync, and returns how many
// partitions changed leader.
func (c *Cluster) MoveLeaders(topics ...string) int {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m, err := c.Adm.Metadata(ctx, topics...)
	if err != nil {
		c.t.Fatalf("metadata: %v", err)
	}
	req := kadm.AlterPartitionAssignmentsReq{}
	set := kadm.TopicsSet{}
	for _, td := range m.Topics {
		for _, p := range td.Partitions {
			rot := append(slices.Clone(p.Replicas[1:]), p.Replicas[0])
			req.Assign(td.Topic, p.Partition, rot)
			set.Add(td.Topic, p.Partition)
		}
	}
	if _, err := c.Adm.AlterPartitionAssignments(ctx, req); err != nil {
		c.t.Fatalf("reorder the replicas of %v: %v", topics, err)
	}
	c.waitFor(time.Minute, "the replicas reordered", func(ctx context.Context) (bool, string) {
		r, err := c.Adm.ListPartitionReassignments(ctx, set)
		if err != nil {
			return false, err.Error()
		}
		n := 0
		for _, ps := range r {
			n += len(ps)
		}
		return n == 0, fmt.Sprintf("%d reassignments under way", n)
	})
	n := c.ElectPreferred()
	c.WaitInSync(true)
	return n
}
