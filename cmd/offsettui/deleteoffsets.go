package main

import (
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/spf13/cobra"
)

// newDeleteOffsetsCmd is `offsettui delete-offsets`: a plan of deleting a group's commits
// (docs/resets.md#deleting-commits), executed with --execute by the reset service under
// the same guards, backup, audit, read-back and undo as a reset.
func newDeleteOffsetsCmd() *cobra.Command {
	var (
		c common
		f = resetFlags{cmd: "delete-offsets"}
	)
	cmd := &cobra.Command{
		Use:   "delete-offsets --group G (--topic T[:P,P]... | --all-topics) [--execute] [flags]",
		Short: "plan or --execute deleting a group's commits on topics",
		Long: "Plans deleting a group's commits with kafka-consumer-groups --delete-offsets semantics (OffsetDelete):\n" +
			"a live group is not refused as such, the broker refuses the topics it subscribes to, per partition.\n" +
			"Each row says where the consumer starts without its commit (--assume-reset). --execute writes a\n" +
			"backup first and prints the undo (reset --restore) (docs/resets.md#deleting-commits).",
		Example: "  offsettui delete-offsets --bootstrap-server kafka:9092 --group billing --topic retired-orders\n" +
			"  offsettui delete-offsets --bootstrap-server kafka:9092 --group billing --topic retired-orders:0,2 --execute",
	}
	fs := cmd.Flags()
	c.register(fs)
	fs.StringVar(&f.group, "group", "", "`GROUP` the group whose commits to delete (required)")
	fs.BoolVar(&f.allTopics, "all-topics", false, "scope: every partition the group has a commit on")
	fs.StringArrayVar(&f.topics, "topic", nil, "`T[:P,P]` scope: the commits on topic T, or on partitions P of it (repeatable)")
	fs.BoolVar(&f.execute, "execute", false, "delete the commits (default: print the plan only)")
	f.registerPlanOut(fs)
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", "", "`earliest|latest|none` the consumers' auto.offset.reset: where each starts without its commit (default latest, the Kafka client's; earliest for a streams group, Kafka Streams'; a share group's own share.auto.offset.reset always)")
	f.watch.register(fs, true)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		scope, err := plan.NewScope(f.allTopics, f.topics, plan.DeleteOffsets)
		return planOrWrite(cmd, c, &f, scope, plan.DeleteOffsetsStrategy(), err)
	}
	return cmd
}
