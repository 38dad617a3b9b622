package main

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/cobra"
)

// newBackupCmd is `offsettui backup`: one self-checking backup per group (the CSV and
// manifest a reset writes), from one snapshot, all in one archive that `reset --restore`
// takes group by group; one line per group, and exit 0 only when every group was saved
// (docs/resets.md#backing-up-a-cluster).
func newBackupCmd() *cobra.Command {
	var (
		c      common
		groups []string
		all    bool
		dir    string
	)
	cmd := &cobra.Command{
		Use:   "backup (--group G... | --all-groups) --dir DIR [flags]",
		Short: "one backup per group (--group G... or --all-groups), one archive in --dir",
		Long: "Writes one self-checking backup per group (the CSV and manifest a reset writes) from one\n" +
			"snapshot, all in one archive that reset --restore takes group by group; one line per group;\n" +
			"exit 0 only when every group was saved (docs/resets.md#backing-up-a-cluster).",
		Example: "  offsettui backup --bootstrap-server kafka:9092 --all-groups --dir ./before-maintenance",
	}
	fs := cmd.Flags()
	c.register(fs)
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` a group to back up (repeatable)")
	fs.BoolVar(&all, "all-groups", false, "back up every group the brokers list")
	fs.StringVar(&dir, "dir", "", "`DIR` where the backups go (required)")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		if err := c.validate(); err != nil {
			return badInput(err)
		}
		var err error
		switch {
		case strings.TrimSpace(dir) == "":
			err = fmt.Errorf("--dir is required")
		case all == (len(groups) > 0):
			err = fmt.Errorf("one of --all-groups or --group G (repeatable) is needed")
		}
		for _, g := range groups {
			if strings.TrimSpace(g) == "" {
				err = fmt.Errorf("--group cannot be empty")
			}
		}
		if err != nil {
			return badInput(err)
		}
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		s, err := c.connectOrFail(ctx, stderr)
		if err != nil {
			return err
		}
		defer s.close()
		snap, err := s.client.Snapshot(ctx, model.Query{Groups: groups, RiskWindow: c.riskWindowD})
		if err != nil {
			return failure(fmt.Errorf("cannot read the cluster: %w", err))
		}
		svc := &reset.Service{ClusterName: s.client.Bootstrap}
		saved := svc.SaveBackups(snap, dir)
		failed := 0
		for _, sv := range saved {
			if sv.Err != nil {
				failed++
				fmt.Fprintf(stdout, "NOT SAVED  %s: %v\n", sv.Group, sv.Err)
				continue
			}
			what := fmt.Sprintf("%d positions", sv.Rows)
			if sv.Rows == 0 {
				what = "no commits (a restore has nothing to write)"
			}
			fmt.Fprintf(stdout, "saved      %s: %s in %s\n", sv.Group, what, sv.Path)
		}
		for _, e := range snap.Unlisted {
			failed++ // a broker whose groups were not listed: --all-groups cannot claim every group
			fmt.Fprintf(stdout, "NOT SAVED  %s\n", e.Error())
		}
		if failed > 0 {
			return failure(fmt.Errorf("%d of %d groups saved; %d not (listed above)%s", len(saved)-countErr(saved), len(saved), failed, restoreHint(saved)))
		}
		fmt.Fprintf(stderr, "offsettui backup: every group saved (%d)%s\n", len(saved), restoreHint(saved))
		return nil
	}
	return cmd
}

func countErr(saved []reset.Saved) int {
	n := 0
	for _, sv := range saved {
		if sv.Err != nil {
			n++
		}
	}
	return n
}

// restoreHint names the archive and how to restore a group from it, or is empty when no
// group was saved.
func restoreHint(saved []reset.Saved) string {
	for _, sv := range saved {
		if sv.Err == nil {
			return fmt.Sprintf(" in %s; restore a group with: offsettui reset --group GROUP --restore %s --execute", sv.Path, sv.Path)
		}
	}
	return ""
}
