package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/spf13/cobra"
)

// signalContext is done on SIGINT or SIGTERM, or when parent is; stop releases the signals.
func signalContext(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// newDemoCmd is `offsettui demo`: it starts the demo cluster, prints its bootstrap address,
// and keeps it running until Ctrl-C, so other tools (kcat, Kafka's CLI) can be pointed at it.
func newDemoCmd() *cobra.Command {
	var c common
	cmd := &cobra.Command{
		Use:   "demo [--debug FILE]",
		Short: "run the embedded demo cluster and print its address",
		Long: "Runs the embedded three-broker demo cluster (docs/demo.md), prints its bootstrap address and\n" +
			"keeps it running until Ctrl-C, so other tools can be pointed at it.",
		Example: "  offsettui demo\n" +
			"  " + demoKcatExample + "   # kcat once the demo runs; Ctrl-C stops both",
	}
	fs := cmd.Flags()
	c.register(fs) // only --debug applies: the others are hidden, parsed to be refused with a reason (docs/cli.md)
	notForDemo := []string{"bootstrap-server", "command-config", "context", "config", "demo", "read-only", "timeout", "risk-window", "output"}
	for _, f := range notForDemo {
		_ = fs.MarkHidden(f)
	}
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
		for _, f := range notForDemo {
			if fs.Changed(f) {
				return badInputf("--%s does not apply: demo starts its own cluster (it takes only --debug FILE)", f)
			}
		}
		ctx, stop := signalContext(cmd.Context())
		defer stop()
		logf := func(string, ...any) {}
		if c.debug != "" {
			f, err := os.OpenFile(c.debug, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return badInputf("--debug %s: %v", c.debug, err)
			}
			defer f.Close()
			logf = log.New(f, "", log.LstdFlags|log.Lmicroseconds).Printf
		}
		d, err := demo.Start(ctx, demo.Options{Logf: logf, Traffic: true})
		if err != nil {
			return failure(err)
		}
		defer d.Close()
		addr := strings.Join(d.Bootstrap(), ",")
		fmt.Fprintln(stdout, addr)
		fmt.Fprintf(stderr, "demo cluster running (3 brokers). Try:\n  offsettui --bootstrap-server %s\n  kcat -b %s -L\nCtrl-C stops it.\n", addr, addr)
		<-ctx.Done()
		return nil
	}
	return cmd
}

// demoKcatExample points kcat at the demo as soon as it prints its address. The
// demo runs until Ctrl-C, so "$(offsettui demo | head -1)" never returns: the
// shell waits for the whole pipe.
const demoKcatExample = `offsettui demo 2>/dev/null | { read -r addr; kcat -b "$addr" -L; }`
