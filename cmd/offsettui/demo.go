package main

import (
	"context"
	"fmt"
	"io"
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
	fs := pflag.NewFlagSet("demo", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "offsettui demo: takes no flags or arguments\n")
		return exitBadInput
	}
	d, err := demo.Start(ctx, demo.Options{})
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
