package main

import (
	"fmt"
	"os"
)

func notYet(name string) int {
	fmt.Fprintf(os.Stderr, "offsettui %s: not built yet\n", name)
	return exitFailure
}
