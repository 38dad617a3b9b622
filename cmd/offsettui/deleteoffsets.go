package main

import (
	"io"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/spf13/pflag"
)

// deleteOffsetsMain is `offsettui delete-offsets`: a plan of deleting a group's commits
// (docs/resets.md#deleting-commits), executed with --execute by the reset service under
// the same guards, backup, audit, read-back and undo as a reset.
func deleteOffsetsMain(args []string, stdout, stderr io.Writer) int {
	var (
		c  common
		f  = resetFlags{cmd: "delete-offsets"}
		fs = pflag.NewFlagSet("delete-offsets", pflag.ContinueOnError)
	)
	c.register(fs)
	fs.StringVar(&f.group, "group", "", "`GROUP` the group whose commits to delete (required)")
	fs.BoolVar(&f.allTopics, "all-topics", false, "scope: every partition the group has a commit on")
	fs.StringArrayVar(&f.topics, "topic", nil, "`T[:P,P]` scope: the commits on topic T, or on partitions P of it (repeatable)")
	fs.BoolVar(&f.execute, "execute", false, "delete the commits (default: print the plan only)")
	f.registerPlanOut(fs)
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", model.ResetLatest, "`earliest|latest|none` the consumers' auto.offset.reset: where each starts without its commit")
	f.watch.register(fs, true)
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	scope, err := plan.NewScope(f.allTopics, f.topics, plan.DeleteOffsets)
	return planOrWrite(c, &f, scope, plan.DeleteOffsetsStrategy(), err, stdout, stderr)
}
