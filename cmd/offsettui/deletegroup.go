package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/offsettui/offsettui/internal/kafka"
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
	fs.StringVar(&f.backupDir, "backup-dir", "", "`DIR` where backups and the audit log go (default $XDG_STATE_HOME/offsettui)")
	fs.StringVar(&f.assume, "assume-reset", model.ResetLatest, "`earliest|latest|none` the consumers' auto.offset.reset: where each starts without its commit")
	f.watch.register(fs, true)
	if ok, code := parseFlags(fs, &c, args, stdout, stderr); !ok {
		return code
	}
	var err error
	if strings.TrimSpace(f.group) == "" {
		err = fmt.Errorf("--group is required")
	}
	if err == nil {
		if f.assume, err = model.ParseAssumeReset(f.assume); err != nil {
			err = fmt.Errorf("--assume-reset: %w", err)
		}
	}
	if err == nil {
		err = f.watch.parse()
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui delete-group: %v\n", err)
		return exitBadInput
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, code := c.connectOrExit(ctx, "delete-group", exitFailure, stderr)
	if s == nil {
		return code
	}
	defer s.close()
	svc := f.service(c, s)
	p, err := svc.Plan(ctx, f.group, plan.DeleteGroupScope, plan.DeleteGroupStrategy())
	if err != nil {
		fmt.Fprintf(stderr, "offsettui delete-group: %v\n", err)
		var denied *model.Error
		if errors.Is(err, kafka.ErrCannotProveInactive) || errors.As(err, &denied) && denied.Kind == model.KindDenied {
			return exitBlocked
		}
		return exitFailure
	}
	return f.finish(ctx, svc, s, p, c.output, stdout, stderr)
}
