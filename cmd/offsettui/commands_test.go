package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Every command of the table is in the overview, in the unknown-command message (above),
// has its help, its man page and its completion, with its flags in each: one list, read
// everywhere.
func TestOneCommandTable(t *testing.T) {
	root := newRootCmd()
	var overview bytes.Buffer
	if code := run([]string{"help"}, &overview, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("help: exit %d", code)
	}
	pages := t.TempDir()
	if code := run([]string{"gen-man", pages}, &bytes.Buffer{}, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("gen-man: exit %d", code)
	}
	wantPages := []string{"offsettui.1"}
	for _, c := range root.Commands() {
		if c.Hidden {
			if _, err := os.Stat(filepath.Join(pages, manName(c)+".1")); err == nil {
				t.Errorf("the hidden %s has a man page", c.Name())
			}
			continue
		}
		wantPages = append(wantPages, manName(c)+".1")
		if !strings.Contains(overview.String(), "\n  "+synopsis(c)+" ") || c.Short == "" {
			t.Errorf("%s: not in the overview as %q with its summary", c.Name(), synopsis(c))
		}
		if got, _, _ := complete(t, c.Name()); !slices.Contains(got, c.Name()) {
			t.Errorf("%s: does not complete: %q", c.Name(), got)
		}
		var help bytes.Buffer
		if code := run([]string{c.Name(), "--help"}, &help, &bytes.Buffer{}); code != exitOK || !strings.HasPrefix(help.String(), "Usage: offsettui "+c.Name()) {
			t.Errorf("help %s: exit %d:\n%s", c.Name(), code, help.String())
		}
		page, err := os.ReadFile(filepath.Join(pages, manName(c)+".1"))
		if err != nil {
			t.Errorf("%s: %v", c.Name(), err)
			continue
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden {
				return
			}
			if !strings.Contains(help.String(), "--"+f.Name+" ") && !strings.Contains(help.String(), "--"+f.Name+"\n") {
				t.Errorf("help %s lacks --%s", c.Name(), f.Name)
			}
			if !strings.Contains(string(page), strings.ReplaceAll("--"+f.Name, "-", `\-`)) {
				t.Errorf("the man page of %s lacks --%s", c.Name(), f.Name)
			}
		})
		if c.Example != "" && !strings.Contains(string(page), "EXAMPLES") {
			t.Errorf("the man page of %s has no examples", c.Name())
		}
	}
	var got []string
	entries, err := os.ReadDir(pages)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, slices.Sorted(slices.Values(wantPages))) {
		t.Errorf("man pages %q, want %q", got, wantPages)
	}
}

// The man pages are the same bytes on every run with the same SOURCE_DATE_EPOCH, which
// dates them; a SOURCE_DATE_EPOCH that is no number is bad input.
func TestManPagesReproducible(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	a, b := t.TempDir(), t.TempDir()
	for _, dir := range []string{a, b} {
		if code := run([]string{"gen-man", dir}, &bytes.Buffer{}, &bytes.Buffer{}); code != exitOK {
			t.Fatalf("gen-man: exit %d", code)
		}
	}
	first, _ := os.ReadFile(filepath.Join(a, "offsettui-reset.1"))
	second, _ := os.ReadFile(filepath.Join(b, "offsettui-reset.1"))
	if len(first) == 0 || !bytes.Equal(first, second) || !bytes.Contains(first, []byte(`.TH "OFFSETTUI-RESET" "1" "2026-01-01"`)) {
		t.Errorf("pages differ or are not dated 2026-01-01:\n%.300s", first)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	var errb bytes.Buffer
	if code := run([]string{"gen-man", t.TempDir()}, &bytes.Buffer{}, &errb); code != exitBadInput || !strings.Contains(errb.String(), "SOURCE_DATE_EPOCH") {
		t.Errorf("SOURCE_DATE_EPOCH=yesterday: exit %d, %q", code, errb.String())
	}
}

// An exit code travels as a value: an exitError decided where the failure is known, said
// once by run as "offsettui COMMAND: message", through any wrapping; an error no command
// decided on is a failure.
func TestExitErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want exitCode
	}{
		{nil, exitOK},
		{badInputf("--x: bad"), exitBadInput},
		{fmt.Errorf("context: %w", badInputf("--x: bad")), exitBadInput},
		{failure(errors.New("down")), exitFailure},
		{exitWith(exitBlocked), exitBlocked},
		{exitWith(exitOK), exitOK},
		{errors.New("undecided"), exitFailure},
	} {
		if got := codeOf(tc.err); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.err, got, tc.want)
		}
	}
	if badInput(nil) != nil || exitWith(exitOK) != nil {
		t.Error("no error must stay no error")
	}
	// The message is said once, with the command's name and without the words of its code.
	var out, errb bytes.Buffer
	if code := run([]string{"describe", "--bootstrap-server", "localhost"}, &out, &errb); code != exitBadInput ||
		errb.String() != "offsettui describe: bootstrap server \"localhost\": want host:port (address localhost: missing port in address)\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// Whether a command may write is decided once, in decideAccess, called where a
// connection is resolved, and travels with it: no other product code makes a writeAccess,
// sets one, or reads --read-only's flag (readonly.go).
func TestWriteAccessDecidedOnce(t *testing.T) {
	allowed := map[string]map[string]bool{ // what may do it, by function
		"writeAccess{": {"decideAccess": true},
		"access =":     {"connectWithSession": true},
		"decideAccess": {"resolveConnection": true},
		"readOnlyFlag": {"register": true, "askedReadOnly": true},
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				var what string
				switch n := n.(type) {
				case *ast.CompositeLit: // writeAccess{} alone refuses: anywhere
					if id, ok := n.Type.(*ast.Ident); ok && id.Name == "writeAccess" && len(n.Elts) > 0 {
						what = "writeAccess{"
					}
				case *ast.AssignStmt:
					for _, l := range n.Lhs {
						if sel, ok := l.(*ast.SelectorExpr); ok && (sel.Sel.Name == "access" || sel.Sel.Name == "writable") {
							what = "access ="
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok && id.Name == "writable" {
						what = "writeAccess{"
					}
				case *ast.CallExpr:
					if id, ok := n.Fun.(*ast.Ident); ok && id.Name == "decideAccess" {
						what = "decideAccess"
					}
				case *ast.SelectorExpr:
					if n.Sel.Name == "readOnlyFlag" {
						what = "readOnlyFlag"
					}
				}
				if what != "" && !allowed[what][fn.Name.Name] {
					t.Errorf("%s: %s in %s", fset.Position(n.Pos()), what, fn.Name.Name)
				}
				return true
			})
		}
	}
	// A path that never decided cannot write.
	if !(writeAccess{}).readOnly() || !(&lazyClient{}).access().readOnly() || !(&session{}).access.readOnly() {
		t.Error("an undecided access is writable")
	}
}

// The command table's hooks hold for every command: no positional argument where none
// is taken, -h and --help hidden from the flags, usage lines as written.
func TestEveryCommandRefusesArguments(t *testing.T) {
	root := newRootCmd()
	for _, c := range append(root.Commands(), root) {
		if f := c.Flags().Lookup("help"); f == nil || !f.Hidden {
			t.Errorf("%s: no hidden --help", c.Name())
		}
		if !c.DisableFlagsInUseLine {
			t.Errorf("%s: cobra adds [flags] to its usage", c.Name())
		}
		switch c.Name() {
		case "help", "completion", "gen-man", "version", root.Name():
			continue // they take arguments; the root's is a command (TestUnknownCommandIsOneLine)
		}
		args := []string{c.Name(), "extra"}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitBadInput || out.Len() > 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2", args, code, out.String(), errb.String())
		}
	}
}
