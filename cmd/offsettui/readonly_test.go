package main

import (
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// Read-only as the run decided it holds on every connection the run makes: a TUI started
// with --read-only or OFFSETTUI_READ_ONLY that switches (:ctx) to a writable context gets a
// read-only connection, screen and reset service; without either, the same switch writes,
// and a read-only context is read-only whatever the run said.
func TestReadOnlyHoldsAcrossContextSwitches(t *testing.T) {
	dir := hermetic(t)
	k := kafkatest.Cluster(t)
	boot := strings.Join(k.ListenAddrs(), ",")
	cfg := writeTestFile(t, filepath.Join(dir, "c.yaml"), "contexts:\n  - name: dev\n    bootstrap-servers: "+boot+"\n"+
		"  - name: prod\n    read-only: true\n    bootstrap-servers: "+boot+"\n", 0o600)
	for _, tc := range []struct {
		name     string
		flag     bool
		env      string
		context  string
		readOnly bool
	}{
		{"--read-only", true, "", "dev", true},
		{"OFFSETTUI_READ_ONLY=1", false, "1", "dev", true},
		{"neither", false, "", "dev", false},
		{"a read-only context", false, "0", "prod", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("OFFSETTUI_READ_ONLY", tc.env)
			sw := &tuiSwitcher{c: common{config: cfg, readOnlyFlag: tc.flag, timeoutD: 5 * time.Second, stderr: io.Discard}, backupDir: t.TempDir()}
			defer sw.closeAll()
			conn, err := sw.Connect(t.Context(), tc.context)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if conn.ReadOnly != tc.readOnly || conn.Resetter.(tuiResetter).svc.ReadOnly != tc.readOnly {
				t.Errorf("screen read-only %v, reset service read-only %v; want %v", conn.ReadOnly, conn.Resetter.(tuiResetter).svc.ReadOnly, tc.readOnly)
			}
		})
	}
}
