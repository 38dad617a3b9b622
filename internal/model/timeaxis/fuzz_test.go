package timeaxis

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzReadBaseline: any input is read or refused with an error naming the
// file; what is read writes back to JSON that reads back the same.
func FuzzReadBaseline(f *testing.F) {
	for _, s := range []string{
		`{"cluster":{"bootstrap":"b","brokers":1,"takenAt":"2026-11-29T08:00:00.000Z"},"groups":[],"topics":[],"errors":[]}`,
		`{"cluster":{"takenAt":"2026-11-29T08:00:00Z"},"groups":[{"group":"g","worstStatus":"ok","counts":{"ok":1},` +
			`"partitions":[{"topic":"t","partition":0,"committed":5,"high":9,"status":"ok","time":{"eta":"never","etaMs":null}}]}]}`,
		`{"cluster":{"takenAt":"x"},"groups":[]}`, `{"groups":null}`, "", "[", `{"cluster":{"takenAt":"2026-11-29T08:00:00Z"},"groups":[{"time":{"evaluation":"nope"}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := ReadBaseline(bytes.NewReader(b), "base.json")
		if err != nil {
			if !strings.Contains(err.Error(), "base.json") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		out, err := json.Marshal(s)
		if err != nil {
			t.Fatalf("read but cannot write back: %v", err)
		}
		again, err := ReadBaseline(bytes.NewReader(out), "base.json")
		if err != nil {
			t.Fatalf("written back but cannot read: %v\n%s", err, out)
		}
		out2, _ := json.Marshal(again)
		if !bytes.Equal(out, out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}
