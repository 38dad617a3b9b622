package main

import (
	"fmt"
	"os"
)

func notYet(name string) int {
	fmt.Fprintf(os.Stderr, "offsettui %s: not built yet\n", name)
	return exitFailure
}

func runTUI(args []string) int   { return notYet("tui") }
func runCheck(args []string) int { return notYet("check") }
func runDemo(args []string) int  { return notYet("demo") }
