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

func runDemo(args []string) int {
	return demoMain(args, os.Stdout, os.Stderr, signalContext())
}

// signalContext is done on SIGINT or SIGTERM.
func signalContext() context.Context {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx
}

// demoMain starts the demo cluster, prints its bootstrap address, and keeps it
// running until ctx is done, so other tools (kcat, Kafka's CLI) can be pointed at it.
func demoMain(args []string, stdout, stderr io.Writer, ctx context.Context) int {
	var c common
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	c.register(fs) // accepted everywhere (docs/cli.md); only --debug matters here
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, f := range []string{"bootstrap-server", "command-config", "read-only", "timeout", "risk-window", "output"} {
		if err == nil && fs.Changed(f) {
			err = fmt.Errorf("--%s does not apply: demo starts its own cluster", f)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "offsettui demo: %v (it takes only the common flags; --debug FILE logs the cluster's events)\n", err)
		return exitBadInput
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
