// Package docpage reads the project's docs/ pages for the tests that hold the code to
// them.
package docpage

import (
	"os"
	"strings"
	"testing"
)

// Section returns the text of the page at path under the line heading (a "## " heading,
// whole), up to the next "## " heading or the page's end. It fails t when the page cannot
// be read or has no such heading.
func Section(t testing.TB, path, heading string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("%s has no section %q", path, heading)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	return section
}
