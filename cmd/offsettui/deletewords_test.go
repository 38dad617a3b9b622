package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestDeleteCommandsSpeakOfDeleting: delete-offsets and delete-group name themselves on
// stderr and speak of deleting commits, never of a reset or of offsets written: the watch's
// countdown, the blocker of a live group, the dry run, the verification and the outcome.
func TestDeleteCommandsSpeakOfDeleting(t *testing.T) {
	addr, dir := startDemo(t), t.TempDir()
	run := func(main func([]string, io.Writer, io.Writer) int, args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := main(append([]string{"--bootstrap-server", addr, "--backup-dir", dir, "--observe", "1s"}, args...), &out, &errb)
		return code, out.String() + errb.String()
	}
	banned := []string{"offsettui reset:", "Assignments", "written", "every offset", "offsets read back", "be reset"}
	for _, tc := range []struct {
		name string
		main func([]string, io.Writer, io.Writer) int
		args []string
		code int
		want []string
	}{
		{"delete-offsets", deleteOffsetsMain, []string{"--group", "ledger", "--all-topics", "--execute"}, exitOK, []string{
			"offsettui delete-offsets: watching group ledger's commits for 1s before deleting",
			"offsettui delete-offsets: watching group ledger's commits for 1s after deleting, in case a consumer outside it commits again",
			"verified: yes: the commits read back are gone, as planned",
			"note: watched the group's commits for 1s before the delete: none moved",
			"note: watched the group's commits for 1s after the delete: nothing committed again",
			"outcome:  applied: every commit was deleted (read back: none left)",
			"offsettui delete-offsets: applied"}},
		{"delete-group of a live group, dry run", deleteGroupMain, []string{"--group", "billing"}, exitBlocked, []string{
			"DRY RUN: nothing was deleted.", "The group 'billing' can only be deleted if it is inactive, but the current state is Stable."}},
		{"delete-group of a live group", deleteGroupMain, []string{"--group", "billing", "--execute"}, exitBlocked, []string{
			"offsettui delete-group: not executed: the plan has blockers (see above); nothing was deleted"}},
		{"delete-group", deleteGroupMain, []string{"--group", "ship-svc", "--execute"}, exitOK, []string{
			"offsettui delete-group: watching group ship-svc's commits for 1s before deleting",
			"outcome:  applied: the group was deleted, and every commit with it (read back: none left)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out := run(tc.main, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, out)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("the output lacks %q:\n%s", w, out)
				}
			}
			for _, b := range banned {
				if strings.Contains(out, b) {
					t.Errorf("the output speaks of %q:\n%s", b, out)
				}
			}
		})
	}
}
