package main

import (
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/spf13/cobra"
)

// newDeleteGroupCmd is `offsettui delete-group`: a plan of deleting an Empty group
// (docs/resets.md#deleting-a-group), executed with --execute by the reset service under a
// reset's guards, after a backup of every commit; the undo restores them into the same name.
func newDeleteGroupCmd() *cobra.Command {
	var (
		c common
		f = resetFlags{cmd: "delete-group"}
	)
	cmd := &cobra.Command{
		Use:   "delete-group --group G [--execute] [flags]",
		Short: "plan or --execute deleting an Empty group, after a backup",
		Long: "Plans deleting an Empty group (kafka-consumer-groups --delete, DeleteGroups) with every commit it\n" +
			"removes; --execute writes a backup first and prints the undo (reset --restore into the same\n" +
			"name) (docs/resets.md#deleting-a-group).",
		Example: "  offsettui delete-group --bootstrap-server kafka:9092 --group decommissioned-svc --execute",
	}
	fs := cmd.Flags()
	c.register(fs)
	fs.StringVar(&f.group, "group", "", "`GROUP` the group to delete (required)")
	fs.BoolVar(&f.execute, "execute", false, "delete the group (default: print the plan only)")
	f.registerPlanOut(fs)
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", "", "`earliest|latest|none` the consumers' auto.offset.reset: where each starts without its commit (default latest, the Kafka client's; earliest for a streams group, Kafka Streams'; a share group's own share.auto.offset.reset always)")
	f.watch.register(fs, true)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		return planOrWrite(cmd, c, &f, plan.DeleteGroupScope, plan.DeleteGroupStrategy(), nil)
	}
	return cmd
}
