package report

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDescribeFit: describe --watch's table fits the terminal: with a 60-character
// consumer id every row wrapped at 120 columns. Each row of a fitted table is within the
// width, a header that lost columns ends in "…", the last line names what was hidden, and
// the values shown are the snapshot's (a consumer id cut at its end). Width 0 shows the
// whole table.
func TestDescribeFit(t *testing.T) {
	s := snapshot()
	long := "consumer-billing-1-" + strings.Repeat("0a1b2c3d", 5) + "-x" // 61 characters
	for i := range s.Groups {
		for j := range s.Groups[i].Partitions {
			if m := s.Groups[i].Partitions[j].Member; m != nil {
				m.MemberID = long
			}
		}
	}
	var whole bytes.Buffer
	if err := DescribeFit(&whole, s, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(whole.String(), long) {
		t.Fatalf("the snapshot has no long consumer id:\n%s", whole.String())
	}
	for _, width := range []int{160, 120, 80, 60} {
		var b bytes.Buffer
		if err := DescribeFit(&b, s, width); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		table := false
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "TOPIC") {
				table = true
				if !strings.HasSuffix(line, "…") {
					t.Errorf("%d: the header %q does not mark the columns hidden", width, line)
				}
			}
			if table && strings.HasPrefix(line, "  ") || line == "" {
				table = false
			}
			if table && utf8.RuneCountInString(line) > width {
				t.Errorf("%d: a row of %d runes: %q", width, utf8.RuneCountInString(line), line)
			}
		}
		if !strings.Contains(out, "hidden to fit "+strconv.Itoa(width)+" columns (…): GROUP, CLIENT-ID, HOST") {
			t.Errorf("%d: no last line naming the columns hidden:\n%s", width, out)
		}
		if width == 160 && !strings.Contains(out, "consumer-billing-1-0a1b2c3d…") {
			t.Errorf("%d: the consumer id is not shortened at its end:\n%s", width, out)
		}
	}
}
