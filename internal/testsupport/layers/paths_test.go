package layers

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/testsupport/docpage"
)

// kafkaEdge is the section of docs/architecture.md whose numbered lists are the ways
// down from kafka.Client to sarama.
const kafkaEdge = "## The Kafka edge"

var (
	// pathIntro is the sentence before a list: "… takes 8 steps to sarama:".
	pathIntro = regexp.MustCompile(`takes (\d+) steps to sarama:$`)
	// pathStep is one line of a list; its first name in backquotes is the step.
	pathStep = regexp.MustCompile("^(\\d+)\\. `([A-Za-z.]+)`")
	// backquoted finds every name in backquotes; the last step's last one is sarama's call.
	backquoted = regexp.MustCompile("`([A-Za-z.]+)`")
)

// docPath is one documented way down: its steps, the sarama call it ends in, and the
// number of steps its sentence gives.
type docPath struct {
	steps   []string
	sarama  string
	claimed int
}

// docPaths reads the lists of the Kafka edge section.
func docPaths(t *testing.T) []docPath {
	t.Helper()
	section := docpage.Section(t, architectureDoc, kafkaEdge)
	var paths []docPath
	var cur *docPath
	for line := range strings.SplitSeq(section, "\n") {
		if m := pathIntro.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			paths = append(paths, docPath{claimed: n})
			cur = &paths[len(paths)-1]
			continue
		}
		if m := pathStep.FindStringSubmatch(line); m != nil && cur != nil {
			cur.steps = append(cur.steps, m[2])
			all := backquoted.FindAllStringSubmatch(line, -1)
			cur.sarama = all[len(all)-1][1]
		}
	}
	return paths
}

// kafkaFuncs parses internal/kafka and its rooms: per package name, its functions and
// methods by name (a name two types share keeps the first).
func kafkaFuncs(t *testing.T) map[string]map[string]*ast.FuncDecl {
	t.Helper()
	root := filepath.Join("..", "..", "kafka")
	dirs := []string{root}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	fset := token.NewFileSet()
	out := map[string]map[string]*ast.FuncDecl{}
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			pkg := f.Name.Name
			if out[pkg] == nil {
				out[pkg] = map[string]*ast.FuncDecl{}
			}
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && out[pkg][fn.Name.Name] == nil {
					out[pkg][fn.Name.Name] = fn
				}
			}
		}
	}
	return out
}

// calls reports whether fn's body, closures included, calls a function or method named name.
func calls(fn *ast.FuncDecl, name string) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		fun := call.Fun
		for {
			switch f := fun.(type) {
			case *ast.IndexExpr:
				fun = f.X
				continue
			case *ast.IndexListExpr:
				fun = f.X
				continue
			case *ast.Ident:
				found = f.Name == name
			case *ast.SelectorExpr:
				found = f.Sel.Name == name
			}
			break
		}
		return !found
	})
	return found
}

// TestKafkaPaths holds docs/architecture.md's ways down from kafka.Client to sarama to the
// code: each step is called by the step before it, or by a closure an earlier step hands
// down (a write's request, run by writeGroup); one of them makes the sarama call the list ends in, and
// the list is as long as its sentence says; the committed offsets of a snapshot's groups
// take at most 8 steps.
func TestKafkaPaths(t *testing.T) {
	funcs := kafkaFuncs(t)
	paths := docPaths(t)
	if len(paths) < 2 {
		t.Fatalf("found %d ways down in docs/architecture.md's %q; want the OffsetFetch and the OffsetCommit ones", len(paths), kafkaEdge)
	}
	for _, p := range paths {
		if len(p.steps) != p.claimed {
			t.Errorf("a way down says %d steps and lists %d: %v", p.claimed, len(p.steps), p.steps)
		}
		if p.sarama == "Broker.FetchOffset" && len(p.steps) > 8 {
			t.Errorf("OffsetFetch for a snapshot's groups takes %d steps to sarama, more than 8: %v", len(p.steps), p.steps)
		}
		var fns []*ast.FuncDecl
		pkg := ""
		for _, step := range p.steps {
			parts := strings.Split(step, ".")
			if len(parts) > 1 {
				pkg = parts[0]
			}
			fn := funcs[pkg][parts[len(parts)-1]]
			if fn == nil {
				t.Errorf("step %s: no function %s in internal/kafka's package %q", step, parts[len(parts)-1], pkg)
				continue
			}
			if len(fns) > 0 && !slices.ContainsFunc(fns, func(before *ast.FuncDecl) bool { return calls(before, fn.Name.Name) }) {
				t.Errorf("no step before %s calls it (%v, in docs/architecture.md)", step, p.steps)
			}
			fns = append(fns, fn)
		}
		sarama := p.sarama[strings.LastIndex(p.sarama, ".")+1:]
		made := false
		for _, fn := range fns {
			made = made || calls(fn, sarama)
		}
		if !made {
			t.Errorf("no step of %v calls %s", p.steps, p.sarama)
		}
	}
}
