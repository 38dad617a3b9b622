package clustertest

// The offsettui binary the cluster tests run, built once per test binary (with -race
// when the tests are), and running it.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// Exit codes (docs/cli.md).
const (
	exitOK      = 0
	exitFailure = 1
	exitBlocked = 3
	exitPartly  = 4
	// exitOverwritten: written, then overwritten by a committer while the reset watched.
	exitOverwritten = 5
)

// offsettui is the path of the built binary; empty when no cluster is set (the tests skip).
var offsettui string

func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv("OFFSETTUI_IT_CLUSTER_BOOTSTRAP") != "" {
			dir, err := os.MkdirTemp("", "offsettui-clustertest-")
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			defer os.RemoveAll(dir)
			if offsettui, err = build(dir); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
		return m.Run()
	}()
	os.Exit(code)
}

// build compiles cmd/offsettui into dir.
func build(dir string) (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("go build cmd/offsettui: %v", err)
	}
	out := filepath.Join(dir, "offsettui")
	args := []string{"build", "-o", out}
	if raceBuild {
		args = append(args, "-race")
	}
	cmd := exec.Command(goBin, append(args, "github.com/offsettui/offsettui/cmd/offsettui")...)
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build cmd/offsettui: %v\n%s", err, b)
	}
	return out, nil
}

// run runs `offsettui args...` to completion (bounded) and returns its exit code,
// stdout and stderr.
func run(t *testing.T, args ...string) (int, []byte, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, offsettui, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.Bytes(), errb.String()
	case errors.As(err, &ee) && ctx.Err() == nil:
		return ee.ExitCode(), out.Bytes(), errb.String()
	}
	t.Fatalf("offsettui %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	return 0, nil, ""
}

// describeJSON runs `offsettui describe args... -o json` and returns the exit code, the
// snapshot (zero when nothing was printed) and stderr.
func describeJSON(t *testing.T, args ...string) (int, model.Snapshot, string) {
	t.Helper()
	code, out, errs := run(t, append(append([]string{"describe"}, args...), "-o", "json")...)
	var snap model.Snapshot
	if len(out) > 0 {
		if err := json.Unmarshal(out, &snap); err != nil {
			t.Fatalf("describe %s: exit %d, output is not JSON: %v\n%s", strings.Join(args, " "), code, err, out)
		}
	}
	return code, snap, errs
}

// resetResult is the part of `reset -o json` these tests read.
type resetResult struct {
	Executed bool    `json:"executed"`
	Verified *bool   `json:"verified"`
	Backup   *string `json:"backup"`
	Undo     *string `json:"undo"`
	Rows     []struct {
		Topic     string           `json:"topic"`
		Partition int32            `json:"partition"`
		Result    plan.WriteResult `json:"result"`
	} `json:"rows"`
	Blockers []plan.Blocker `json:"blockers"`
}

// results maps each row to its result.
func (r resetResult) results() map[model.TP]plan.WriteResult {
	out := map[model.TP]plan.WriteResult{}
	for _, row := range r.Rows {
		out[tpOf(row.Topic, row.Partition)] = row.Result
	}
	return out
}

// runReset runs `offsettui reset args... -o json`.
func runReset(t *testing.T, args ...string) (int, resetResult) {
	t.Helper()
	code, out, errs := run(t, append(append([]string{"reset"}, args...), "-o", "json")...)
	var r resetResult
	if len(out) > 0 {
		if err := json.Unmarshal(out, &r); err != nil {
			t.Fatalf("reset %s: exit %d, output is not JSON: %v\n%s", strings.Join(args, " "), code, err, out)
		}
	}
	t.Logf("offsettui reset %s → exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	return code, r
}

func tpOf(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

// backupFiles lists the backup CSVs and manifests in dir.
func backupFiles(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".csv") || strings.HasSuffix(e.Name(), ".manifest.json") {
			out = append(out, e.Name())
		}
	}
	return out
}
