package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/spf13/pflag"
)

// signalContext is done on SIGINT or SIGTERM; stop releases the signals.
func signalContext() (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

// demoMain starts the demo cluster, prints its bootstrap address, and keeps it
// running until ctx is done, so other tools (kcat, Kafka's CLI) can be pointed at it.
func demoMain(args []string, stdout, stderr io.Writer, ctx context.Context) int {
	var c common
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	c.register(fs) // only --debug applies: the others are hidden, parsed to be refused with a reason (docs/cli.md)
	notForDemo := []string{"bootstrap-server", "command-config", "context", "config", "demo", "read-only", "timeout", "risk-window", "output"}
	for _, f := range notForDemo {
		_ = fs.MarkHidden(f)
	}
	if done, code := parseOnly(fs, args, stdout, stderr); done {
		return code
	}
	for _, f := range notForDemo {
		if fs.Changed(f) {
			fmt.Fprintf(stderr, "offsettui demo: --%s does not apply: demo starts its own cluster (it takes only --debug FILE)\n", f)
			return exitBadInput
		}
	}
	logf := func(string, ...any) {}
	if c.debug != "" {
		f, err := os.OpenFile(c.debug, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "offsettui demo: --debug %s: %v\n", c.debug, err)
			return exitBadInput
		}
		defer f.Close()
		logf = log.New(f, "", log.LstdFlags|log.Lmicroseconds).Printf
	}
	d, err := demo.Start(ctx, demo.Options{Logf: logf, Traffic: true})
	if err != nil {
		fmt.Fprintf(stderr, "offsettui demo: %v\n", err)
		return exitFailure
	}
	defer d.Close()
	addr := strings.Join(d.Bootstrap(), ",")
	fmt.Fprintln(stdout, addr)
	fmt.Fprintf(stderr, "demo cluster running (3 brokers). Try:\n  offsettui --bootstrap-server %s\n  kcat -b %s -L\nCtrl-C stops it.\n", addr, addr)
	<-ctx.Done()
	return exitOK
}
