package commitlog

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// Any bytes as a record of __consumer_offsets: never a panic, and a record that decodes
// is kept only for the group it names.
func FuzzCommitLogRecord(f *testing.F) {
	k := kmsg.NewOffsetCommitKey()
	k.Version, k.Group, k.Topic, k.Partition = 1, "g", "t", 3
	v := kmsg.NewOffsetCommitValue()
	v.Version, v.Offset, v.CommitTimestamp = 3, 42, 1_700_000_000_000
	f.Add(k.AppendTo(nil), v.AppendTo(nil))
	v.Version, v.ExpireTimestamp = 1, 1_800_000_000_000
	f.Add(k.AppendTo(nil), v.AppendTo(nil))
	gk := kmsg.NewGroupMetadataKey()
	gk.Version, gk.Group = 2, "g"
	gv := kmsg.NewGroupMetadataValue()
	gv.Version, gv.ProtocolType, gv.CurrentStateTimestamp = 4, "consumer", 1_700_000_000_000
	f.Add(gk.AppendTo(nil), gv.AppendTo(nil))
	f.Add([]byte{0, 5, 0, 1, 'g'}, []byte(nil))
	f.Fuzz(func(t *testing.T, key, value []byte) {
		st := &offsetsPartitionState{groups: map[string]*groupLogState{"g": {}}, topics: map[string]string{}}
		st.record(key, value, time.UnixMilli(1), -1, 4, 60_000)
		st.record(key, value, time.UnixMilli(2), 7, 4, 60_000)
		st.decide(7, []byte{0, 0, 0, 1}, 4, 60_000)
		if len(st.groups) != 1 || st.groups["g"] == nil {
			t.Fatalf("groups changed: %v", st.groups)
		}
		_, group, ok := keyGroup(key)
		if (len(st.groups["g"].commits) > 0 || st.groups["g"].classic != nil) && (!ok || string(group) != "g") {
			t.Errorf("a record of group %q (%v) was kept for g", group, ok)
		}
		for tp, c := range st.groups["g"].commits {
			if tp.Topic == "" && len(key) < 8 {
				t.Errorf("commit %v: %+v from a key too short to hold one", tp, c)
			}
		}
	})
}
