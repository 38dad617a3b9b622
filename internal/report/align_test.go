package report

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"text/tabwriter"
)

// aligned lays rows out exactly as text/tabwriter (padding 2) does, for
// ASCII, multi-byte and empty cells, short and long columns.
func TestAlignedIsTabwriter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	words := []string{"", "-", "a", "orders", "ü", "≥ 5", "日本語", strings.Repeat("x", 70), "EXPIRED (lost 18)", "/10.0.0.7"}
	for trial := range 200 {
		cols, nrows := 1+r.IntN(6), 1+r.IntN(8)
		var want bytes.Buffer
		tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
		var got bytes.Buffer
		bw := bufio.NewWriter(&got)
		var a aligned
		a.start(cols)
		for range nrows {
			cells := make([]string, cols)
			for c := range cells {
				cells[c] = words[r.IntN(len(words))]
				a.add(cells[c])
			}
			tw.Write([]byte(strings.Join(cells, "\t") + "\n"))
		}
		if err := tw.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := a.writeTo(bw); err != nil {
			t.Fatal(err)
		}
		bw.Flush()
		if got.String() != want.String() {
			t.Fatalf("trial %d: got\n%q\nwant\n%q", trial, got.String(), want.String())
		}
	}
}
