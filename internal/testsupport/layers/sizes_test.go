package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The sizes a room of the product keeps (docs/architecture.md): a type with more
// methods is two jobs, a longer function is read in pieces anyway.
const (
	maxMethods   = 30
	maxFuncLines = 80
)

// overMethods are the types over maxMethods when the limit came, with their count: each
// may shrink, none may grow, and one back under the limit leaves this list. The TUI's
// screens are bubbletea models whose keys, layouts and drawing share one receiver;
// GroupPartition's methods are its derived values.
var overMethods = map[string]int{
	"internal/views.plannerScreen":  80,
	"internal/views.app":            39,
	"internal/views.groupScreen":    37,
	"internal/model.GroupPartition": 32,
}

// productFiles returns the product's Go files under the module's root (../../..):
// cmd/ and internal/, tests and test support left out.
func productFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join("..", "..", "..", top), func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && (d.Name() == "testdata" || d.Name() == "testsupport"):
				return filepath.SkipDir
			case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// TestSizes holds every type of the product to maxMethods declared methods (but
// overMethods) and every function to maxFuncLines lines.
func TestSizes(t *testing.T) {
	fset := token.NewFileSet()
	methods := map[string]int{} // "dir.Type" -> methods declared
	files := productFiles(t)
	if len(files) < 100 {
		t.Fatalf("found %d product files; the walk is broken", len(files))
	}
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			if lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines, more than %d: split it", fset.Position(fn.Pos()), fn.Name.Name, lines, maxFuncLines)
			}
			if fn.Recv != nil {
				methods[filepath.Dir(path)+"."+receiver(fn.Recv.List[0].Type)]++
			}
		}
	}
	if len(methods) < 20 {
		t.Fatalf("found methods on %d types; the parse is broken", len(methods))
	}
	for typ, n := range methods {
		typ = strings.TrimPrefix(filepath.ToSlash(typ), "../../../")
		was, listed := overMethods[typ]
		switch {
		case listed && n > was:
			t.Errorf("%s has %d methods, %d when the limit came: move some to a type of their own", typ, n, was)
		case listed && n <= maxMethods:
			t.Errorf("%s has %d methods, within the limit of %d: remove it from overMethods", typ, n, maxMethods)
		case !listed && n > maxMethods:
			t.Errorf("%s has %d methods, more than %d: it does two jobs", typ, n, maxMethods)
		}
	}
	for typ := range overMethods {
		if _, ok := methods["../../../"+typ]; !ok {
			t.Errorf("overMethods lists %s, which has no methods any more: remove it", typ)
		}
	}
}

// receiver is the name of a method's receiver type.
func receiver(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return receiver(t.X)
	case *ast.IndexExpr:
		return receiver(t.X)
	case *ast.IndexListExpr:
		return receiver(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}
