// Command chart lints and renders deploy/helm/offsettui with Helm's library,
// offline, and writes deploy/kubernetes/ from it:
//
//	go run ./cmd/chart lint [-f VALUES]...
//	go run ./cmd/chart template [-f VALUES]...   # as helm template offsettui -n offsettui
//	go run ./cmd/chart manifests                  # rewrites ../deploy/kubernetes/
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/offsettui/offsettui/tools/chart"
)

type valueFiles []string

func (v *valueFiles) String() string     { return strings.Join(*v, ",") }
func (v *valueFiles) Set(s string) error { *v = append(*v, s); return nil }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: chart lint|template|manifests [-f VALUES]... [-chart DIR]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	var files valueFiles
	fs.Var(&files, "f", "a values file (repeatable)")
	dir := fs.String("chart", filepath.Join("..", chart.ChartDir), "the chart")
	out := fs.String("out", filepath.Join("..", chart.ManifestsDir), "manifests: where to write")
	_ = fs.Parse(os.Args[2:])
	// Helm's loader logs at INFO that files/offsettui-rules.yml is a link; it is.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	vals, err := chart.LoadValues(files...)
	if err != nil {
		fail(err)
	}
	switch os.Args[1] {
	case "lint":
		msgs, err := chart.Lint(*dir, vals, chart.DefaultRelease.Namespace)
		for _, m := range msgs {
			fmt.Println(m)
		}
		if err != nil {
			fail(err)
		}
		fmt.Println("1 chart linted, 0 failed")
	case "template":
		ms, err := chart.Render(*dir, vals, chart.DefaultRelease)
		if err != nil {
			fail(err)
		}
		fmt.Print(chart.Join(ms))
	case "manifests":
		names, err := chart.WriteManifests(*dir, *out)
		if err != nil {
			fail(err)
		}
		fmt.Printf("wrote %s into %s\n", strings.Join(names, ", "), *out)
	default:
		fmt.Fprintf(os.Stderr, "chart: unknown command %q: lint, template or manifests\n", os.Args[1])
		os.Exit(2)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "chart:", err)
	os.Exit(1)
}
