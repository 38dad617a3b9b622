package main

// The other writes — delete-offsets, delete-group and reset --from-group — refused every way
// a reset is, on the real broker (scripts/kafka.sh): an ACL-denied group, an ACL-denied topic,
// a broker refusal, a read-only context and OFFSETTUI_READ_ONLY. Each writes nothing: the
// commits read back unchanged with franz-go (and, through the fault proxy, not one write
// request leaves offsettui where a guard refuses), no backup or manifest file, and no audit
// outcome claiming success; the exit code is docs/cli.md's 3. A dry run of each writes
// nothing either.

import (
	"io"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// writeCmd is one write command: its main and the arguments that plan it on a group.
type writeCmd struct {
	name string
	main func([]string, io.Writer, io.Writer) int
	args func(group string) []string
}

// writeCmds are the three writes, scoped to topic; from-group copies source's commits.
func writeCmds(topic, source string) []writeCmd {
	return []writeCmd{
		{"delete-offsets", deleteOffsetsMain, func(g string) []string { return []string{"--group", g, "--topic", topic} }},
		{"delete-group", deleteGroupMain, func(g string) []string { return []string{"--group", g} }},
		{"reset --from-group", resetMain, func(g string) []string { return []string{"--group", g, "--from-group", source, "--topic", topic} }},
	}
}

// wantNothing fails unless a refusal before any write left dir without a file (no backup,
// manifest or audit line) and the group's commits as they were.
func wantNothing(t *testing.T, what, dir string, seed *realkafka.Seed, group string, before map[model.TP]int64) {
	t.Helper()
	if files := backupFiles(t, dir); len(files) != 0 || len(auditLog(t, dir)) != 0 {
		t.Errorf("%s: left %v and audit %+v; want no backup, manifest or audit line", what, files, auditLog(t, dir))
	}
	if got := seed.Committed(group); !maps.Equal(got, before) {
		t.Errorf("%s: %s's commits read back %v, want %v unchanged", what, group, got, before)
	}
}

// TestRealKafkaWriteRefusalsUnderACLs: as alice (and a user of the test's own that may
// describe every topic but delete no group), each write of a group she may not describe
// exits 3 naming GROUP_AUTHORIZATION_FAILED before anything is planned; each that meets a
// topic she may not touch is refused (the broker's TOPIC_AUTHORIZATION_FAILED per partition,
// or, for delete-group, the plan's topics-may-be-hidden: its backup could not hold their
// commits); and each the broker refuses as a whole (no Delete, or no Read, on the group) is
// refused per partition with its code. Nothing is written; the broker's refusals leave the
// audit's intent and a refused outcome, the others no line at all.
func TestRealKafkaWriteRefusalsUnderACLs(t *testing.T) {
	w := newACLResetWorld(t)
	gdel, src := realkafka.Name("acl-gdel"), realkafka.Name("acl-src")
	w.seed.Commit(gdel, w.commits)
	w.seed.Commit(src, map[model.TP]int64{tpOf(w.open, 0): 1, tpOf(w.open, 1): 2, tpOf(w.seen, 0): 1})
	w.seed.Allow("User:alice", nil, []string{gdel}, kadm.OpDescribe, kadm.OpRead, kadm.OpDelete)
	w.seed.Allow("User:alice", nil, []string{src}, kadm.OpDescribe, kadm.OpRead)
	// carol sees every topic (Describe on all, and CLUSTER_ACTION, offsettui's test of that,
	// which the broker reports to those who may describe the cluster) and may read group cg
	// but not delete it.
	carol, carolProps := w.seed.NewSCRAMUser("carol")
	cg := realkafka.Name("acl-cg")
	w.seed.Commit(cg, w.commits)
	w.seed.AllowCluster("User:"+carol, kadm.OpDescribe, kadm.OpClusterAction)
	w.seed.Allow("User:"+carol, []string{"*"}, nil, kadm.OpDescribe)
	w.seed.Allow("User:"+carol, nil, []string{cg}, kadm.OpDescribe, kadm.OpRead)
	asCarol := func(args ...string) []string {
		return append([]string{"--bootstrap-server", w.sasl, "--command-config", carolProps, "--timeout", "5s"}, args...)
	}
	cmds := writeCmds(w.open, src)
	deleteOffsets, deleteGroup, fromGroup := cmds[0], cmds[1], cmds[2]

	t.Run("denied-group", func(t *testing.T) {
		for _, c := range append(cmds, writeCmd{"reset --from-group (denied source)", resetMain, func(g string) []string {
			return []string{"--group", w.g3, "--from-group", w.denied, "--topic", w.open}
		}}) {
			dir := t.TempDir()
			code, r, stderr := runWrite(t, c.name, c.main, w.alice(append(c.args(w.denied), "--backup-dir", dir, "--execute", "--observe", "0")...)...)
			if code != exitBlocked || r.Executed || !strings.Contains(stderr, "GROUP_AUTHORIZATION_FAILED") {
				t.Errorf("%s of a denied group: exit %d executed %v stderr %q; want 3 naming GROUP_AUTHORIZATION_FAILED", c.name, code, r.Executed, stderr)
			}
			wantNothing(t, c.name, dir, w.seed, w.denied, w.commits)
			wantNothing(t, c.name, dir, w.seed, w.g3, w.commits)
		}
	})

	t.Run("denied-topic", func(t *testing.T) {
		dir := t.TempDir()
		code, r, _ := runWrite(t, deleteOffsets.name, deleteOffsets.main, w.alice("--group", gdel, "--topic", w.seen, "--backup-dir", dir, "--execute", "--observe", "0")...)
		wantRefused(t, code, r, dir, "TOPIC_AUTHORIZATION_FAILED")
		dir = t.TempDir()
		code, r, _ = runWrite(t, fromGroup.name, fromGroup.main, w.alice("--group", w.g3, "--from-group", src, "--topic", w.seen, "--backup-dir", dir, "--execute", "--observe", "0")...)
		wantRefused(t, code, r, dir, "TOPIC_AUTHORIZATION_FAILED")
		dir = t.TempDir()
		code, r, _ = runWrite(t, deleteGroup.name, deleteGroup.main, w.alice(append(deleteGroup.args(gdel), "--backup-dir", dir, "--execute", "--observe", "0")...)...)
		if code != exitBlocked || r.Executed || !blockedBy(r.Blockers, plan.BlockHiddenTopics) {
			t.Errorf("delete-group with topics hidden: exit %d executed %v blockers %+v; want 3, topics-may-be-hidden", code, r.Executed, r.Blockers)
		}
		wantNothing(t, "delete-group with topics hidden", dir, w.seed, gdel, w.commits)
		wantNothing(t, "the refused topic writes", t.TempDir(), w.seed, w.g3, w.commits)
	})

	t.Run("broker-refusal", func(t *testing.T) {
		for _, c := range []struct {
			cmd   writeCmd
			args  []string
			group string
		}{
			{deleteOffsets, w.alice(deleteOffsets.args(w.g2)...), w.g2},                                  // no Delete on the group
			{fromGroup, w.alice(fromGroup.args(w.describeOnly)...), w.describeOnly},                      // no Read on the group
			{deleteGroup, asCarol(deleteGroup.args(cg)...), cg},                                          // no Delete on the group
			{deleteGroup, append([]string{"--bootstrap-server", w.addr}, deleteGroup.args(gdel)...), ""}, // the super user: control
		} {
			dir := t.TempDir()
			code, r, _ := runWrite(t, c.cmd.name, c.cmd.main, append(c.args, "--backup-dir", dir, "--execute", "--observe", "0")...)
			if c.group == "" {
				if code != exitOK || len(w.seed.Committed(gdel)) != 0 {
					t.Errorf("control: the super user's delete-group: exit %d, commits left %v; want 0 and none", code, w.seed.Committed(gdel))
				}
				continue
			}
			wantRefused(t, code, r, dir, "GROUP_AUTHORIZATION_FAILED")
			if got := w.seed.Committed(c.group); !maps.Equal(got, w.commits) {
				t.Errorf("%s: %s's commits read back %v, want %v unchanged", c.cmd.name, c.group, got, w.commits)
			}
		}
	})
}

// TestRealKafkaWriteRefusalsReadOnly: through the fault proxy, which counts what reaches
// the broker: a dry run of each write, and each write with --execute in a read-only context
// or under OFFSETTUI_READ_ONLY=1, sends no OffsetCommit, OffsetDelete or DeleteGroups, writes
// no file and leaves the commits as they were; the refusals exit 3 with the read-only
// blocker, the dry runs 0. Each write then executed for real is counted (the counts can fail).
func TestRealKafkaWriteRefusalsReadOnly(t *testing.T) {
	dir := hermetic(t)
	w := newTrustWorld(t, "rw")
	p, id := proxied(t, w.addr)
	src := realkafka.Name("rw-src")
	w.seed.Commit(src, map[model.TP]int64{tpOf(w.topic, 0): 1, tpOf(w.topic, 1): 2})
	cfg := writeTestFile(t, filepath.Join(dir, "ctx.yaml"), "contexts:\n  - name: prod\n    read-only: true\n    bootstrap-servers: "+p.Addrs()[0]+"\n", 0o600)
	writes := func() int {
		return p.Requests(id, kmsg.OffsetCommit) + p.Requests(id, kmsg.OffsetDelete) + p.Requests(id, kmsg.DeleteGroups)
	}
	for _, c := range writeCmds(w.topic, src) {
		for _, how := range []struct {
			name     string
			env      string
			args     []string
			readOnly bool
		}{
			{"dry run", "", []string{"--bootstrap-server", p.Addrs()[0]}, false},
			{"read-only context", "", []string{"--config", cfg, "--context", "prod", "--execute"}, true},
			{"OFFSETTUI_READ_ONLY=1", "1", []string{"--bootstrap-server", p.Addrs()[0], "--execute"}, true},
		} {
			t.Setenv("OFFSETTUI_READ_ONLY", how.env)
			backups := t.TempDir()
			p.ResetCounts()
			code, r, _ := runWrite(t, c.name, c.main, append(append(c.args(w.group), how.args...), "--backup-dir", backups, "--observe", "0")...)
			readOnly := len(r.Blockers) > 0 && r.Blockers[0].Kind == plan.BlockReadOnly
			switch {
			case how.readOnly && (code != exitBlocked || r.Executed || !readOnly):
				t.Errorf("%s, %s: exit %d executed %v blockers %+v; want 3, read-only first", c.name, how.name, code, r.Executed, r.Blockers)
			case !how.readOnly && (code != exitOK || r.Executed || len(r.Rows) == 0):
				t.Errorf("%s, %s: exit %d executed %v rows %d blockers %+v; want 0, a plan, nothing executed", c.name, how.name, code, r.Executed, len(r.Rows), r.Blockers)
			}
			if n := writes(); n != 0 {
				t.Errorf("%s, %s: %d write requests reached the broker, want none", c.name, how.name, n)
			}
			wantNothing(t, c.name+", "+how.name, backups, w.seed, w.group, w.want)
		}
	}
	t.Setenv("OFFSETTUI_READ_ONLY", "")
	for _, c := range writeCmds(w.topic, src) {
		g, _ := w.newGroup(t, "rw-control")
		p.ResetCounts()
		code, _, _ := runWrite(t, c.name, c.main, append(c.args(g), "--bootstrap-server", p.Addrs()[0], "--backup-dir", t.TempDir(), "--execute", "--observe", "0")...)
		if n := writes(); code != exitOK || n != 1 {
			t.Errorf("control, %s --execute: exit %d, %d write requests counted; want 0 and 1", c.name, code, n)
		}
	}
}
