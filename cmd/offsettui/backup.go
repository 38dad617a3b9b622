package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/reset"
	"github.com/spf13/pflag"
)

// backupMain is `offsettui backup`: one self-checking backup per group (the CSV and
// manifest a reset writes), from one snapshot, all in one archive that `reset --restore`
// takes group by group; one line per group, and exit 0 only when every group was saved
// (docs/resets.md#backing-up-a-cluster).
func backupMain(args []string, stdout, stderr io.Writer) int {
	var (
		c      common
		groups []string
		all    bool
		dir    string
		fs     = pflag.NewFlagSet("backup", pflag.ContinueOnError)
	)
	c.register(fs)
	fs.StringArrayVar(&groups, "group", nil, "`GROUP` a group to back up (repeatable)")
	fs.BoolVar(&all, "all-groups", false, "back up every group the brokers list")
	fs.StringVar(&dir, "dir", "", "`DIR` where the backups go (required)")
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
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
		fmt.Fprintf(stderr, "offsettui backup: %v\n", err)
		return exitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, code := c.connectOrExit(ctx, "backup", exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	defer oneShotGC()()
	snap, err := s.client.Snapshot(ctx, model.Query{Groups: groups, RiskWindow: c.riskWindowD})
	if err != nil {
		fmt.Fprintf(stderr, "offsettui backup: cannot read the cluster: %v\n", err)
		return exitFailure
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
		fmt.Fprintf(stderr, "offsettui backup: %d of %d groups saved; %d not (listed above)%s\n", len(saved)-countErr(saved), len(saved), failed, restoreHint(saved))
		return exitFailure
	}
	fmt.Fprintf(stderr, "offsettui backup: every group saved (%d)%s\n", len(saved), restoreHint(saved))
	return exitOK
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
