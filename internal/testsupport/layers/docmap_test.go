package layers

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// architectureDoc is the package map TestLayers holds the tree to.
const architectureDoc = "../../../docs/architecture.md"

// docRow is a line of a table of docs/architecture.md that names a package.
var docRow = regexp.MustCompile("^\\| `([a-z0-9_/]+)` \\|")

// docPackages returns the packages of this module docs/architecture.md has a line for
// (the tools module's, under tools/, are a go.mod of their own and left out).
func docPackages(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatalf("reading the package map: %v", err)
	}
	var pkgs []string
	for line := range strings.SplitSeq(string(b), "\n") {
		if m := docRow.FindStringSubmatch(line); m != nil && !strings.HasPrefix(m[1], "tools/") {
			pkgs = append(pkgs, m[1])
		}
	}
	return pkgs
}

// checkDocMap fails for each package of the module docs/architecture.md has no line for,
// and for each line that names no package of the module.
func checkDocMap(t *testing.T, all map[string]pkgInfo) {
	t.Helper()
	doc := docPackages(t)
	for pkg := range all {
		if rel := strings.TrimPrefix(pkg, module+"/"); !slices.Contains(doc, rel) {
			t.Errorf("docs/architecture.md has no line for %s: add its job there", rel)
		}
	}
	for _, rel := range doc {
		if _, ok := all[module+"/"+rel]; !ok {
			t.Errorf("docs/architecture.md names %s, which is not a package of the module: remove its line", rel)
		}
	}
}
