package kafka_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/docpage"
)

const (
	kmsgPath = "github.com/twmb/franz-go/pkg/kmsg"
	wireDoc  = "../../docs/design-wire.md"
	// wireList is the heading of the table of design-wire.md this test holds to the code.
	wireList = "## The requests sent through franz-go"
)

// kmsgRequest matches a kmsg request type or constructor (kmsg.OffsetFetchRequest,
// kmsg.NewOffsetFetchRequest, kmsg.NewPtrOffsetFetchRequest) and captures the kind.
var kmsgRequest = regexp.MustCompile(`^(?:NewPtr|New)?([A-Z][A-Za-z0-9]*)Request$`)

// kgoRequestsBuilt returns, per request kind, the first non-test file under dir that names a
// kmsg request of that kind: kmsg requests are sent through kgo (internal/kafka/wire/kgocall.go), sarama has
// its own types.
func kgoRequestsBuilt(t *testing.T, dir string) map[string]string {
	t.Helper()
	built := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return filepath.SkipDir
		case d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go"):
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		local := kmsgName(f)
		if local == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == local {
					if m := kmsgRequest.FindStringSubmatch(sel.Sel.Name); m != nil && built[m[1]] == "" {
						built[m[1]] = path
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return built
}

// kmsgName is the name f imports kmsg under, or "" when it does not.
func kmsgName(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == kmsgPath {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "kmsg"
		}
	}
	return ""
}

// wireDocRequests returns the request kinds of the table under wireList in design-wire.md:
// the first column of each row, in backquotes.
func wireDocRequests(t *testing.T) []string {
	t.Helper()
	section := docpage.Section(t, wireDoc, wireList)
	row := regexp.MustCompile("^\\| `([A-Za-z]+)` \\|")
	var kinds []string
	for line := range strings.SplitSeq(section, "\n") {
		if m := row.FindStringSubmatch(line); m != nil {
			kinds = append(kinds, m[1])
		}
	}
	return kinds
}

// TestWireDocNamesEveryKgoRequest holds docs/design-wire.md's list of the requests sent
// through franz-go to the code of internal/kafka, both ways.
func TestWireDocNamesEveryKgoRequest(t *testing.T) {
	built := kgoRequestsBuilt(t, ".")
	if built["ShareGroupDescribe"] == "" {
		t.Fatalf("found no kmsg.ShareGroupDescribeRequest in internal/kafka (found %v): the parse is broken", built)
	}
	documented := wireDocRequests(t)
	for kind, file := range built {
		if !slices.Contains(documented, kind) {
			t.Errorf("internal/kafka/%s sends %s through franz-go, which docs/design-wire.md does not name under %q: add its row",
				filepath.ToSlash(file), kind, wireList)
		}
	}
	for _, kind := range documented {
		if built[kind] == "" {
			t.Errorf("docs/design-wire.md names %s under %q, which internal/kafka no longer sends through franz-go: remove its row", kind, wireList)
		}
	}
}
