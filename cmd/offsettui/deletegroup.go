package main

import (
	"io"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/spf13/pflag"
)

// deleteGroupMain is `offsettui delete-group`: a plan of deleting an Empty group
// (docs/resets.md#deleting-a-group), executed with --execute by the reset service under a
// reset's guards, after a backup of every commit; the undo restores them into the same name.
func deleteGroupMain(args []string, stdout, stderr io.Writer) int {
	var (
		c  common
		f  = resetFlags{cmd: "delete-group"}
		fs = pflag.NewFlagSet("delete-group", pflag.ContinueOnError)
	)
	c.register(fs)
	fs.StringVar(&f.group, "group", "", "`GROUP` the group to delete (required)")
	fs.BoolVar(&f.execute, "execute", false, "delete the group (default: print the plan only)")
	f.registerPlanOut(fs)
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", model.ResetLatest, "`earliest|latest|none` the consumers' auto.offset.reset: where each starts without its commit")
	f.watch.register(fs, true)
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	return planOrWrite(c, &f, plan.DeleteGroupScope, plan.DeleteGroupStrategy(), nil, stdout, stderr)
}
