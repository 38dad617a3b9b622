package model

import (
	"strings"
	"testing"
)

// TestFileNamePart: a safe name stays as it is; any other is made safe, cut, and marked
// with a hash of the whole name, so names that differ never share a file.
func TestFileNamePart(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"billing", "billing"},
		{"a/b", "a_b~c14cddc0"},
		{".hidden", "hidden~16924190"},
		{strings.Repeat("x", 12), "xxxxxxxxxx~59ffe12a"},
	} {
		if got := FileNamePart(c.name, 10); got != c.want {
			t.Errorf("FileNamePart(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if a, b := FileNamePart(strings.Repeat("x", 20)+"a", 10), FileNamePart(strings.Repeat("x", 20)+"b", 10); a == b {
		t.Errorf("two names share %s", a)
	}
}
