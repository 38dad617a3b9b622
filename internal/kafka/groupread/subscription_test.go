package groupread

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"
)

// encodeSubscription writes a consumer protocol subscription of the version with franz-go's
// encoder, the oracle of the layout.
func encodeSubscription(version int16, topics []string, userData []byte) []byte {
	m := kmsg.NewConsumerMemberMetadata()
	m.Version, m.Topics, m.UserData = version, topics, userData
	if version >= 1 {
		m.OwnedPartitions = []kmsg.ConsumerMemberMetadataOwnedPartition{{Topic: "owned", Partitions: []int32{0, 3}}}
	}
	m.Generation = 7
	m.Rack = kmsg.StringPtr("rack-a")
	return m.AppendTo(nil)
}

func TestSubscriptionTopics(t *testing.T) {
	for v := int16(0); v <= 3; v++ {
		b := encodeSubscription(v, []string{"orders", "audit", "orders"}, []byte("user"))
		got, ok := subscriptionTopics(b)
		if !ok || !slices.Equal(got, []string{"audit", "orders"}) {
			t.Errorf("version %d: %v %v, want [audit orders] (sorted, distinct)", v, got, ok)
		}
		// Every version starts with version 0's fields: a later version's extra bytes, and
		// a version offsettui has never seen, are read alike.
		future := append(encodeSubscription(v, []string{"a"}, nil), 1, 2, 3)
		future[0], future[1] = 0, 9
		if got, ok := subscriptionTopics(future); !ok || !slices.Equal(got, []string{"a"}) {
			t.Errorf("version 9 with version %d's fields: %v %v", v, got, ok)
		}
	}
	empty := encodeSubscription(0, nil, nil)
	if got, ok := subscriptionTopics(empty); !ok || got == nil || len(got) != 0 {
		t.Errorf("no topics: %v %v, want [] true", got, ok)
	}
	full := encodeSubscription(0, []string{"orders"}, []byte("xyz"))
	for n := range len(full) - 1 { // cut inside the user data, or before: never read
		if got, ok := subscriptionTopics(full[:n]); ok && n < len(full)-3 {
			t.Errorf("cut to %d bytes: %v, want not readable", n, got)
		}
	}
	for name, b := range map[string][]byte{
		"negative topic count":  {0, 0, 0xff, 0xff, 0xff, 0xfe, 0, 0, 0, 0},
		"huge topic count":      {0, 0, 0x7f, 0xff, 0xff, 0xff},
		"negative topic length": {0, 0, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 0},
		"user data too long":    {0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 1},
	} {
		if got, ok := subscriptionTopics(b); ok {
			t.Errorf("%s: %v, want not readable", name, got)
		}
	}
}

// FuzzSubscriptionTopics checks that reading never panics, and that whatever franz-go's
// decoder reads as a version 0 subscription offsettui reads with the same topics.
func FuzzSubscriptionTopics(f *testing.F) {
	for v := int16(0); v <= 3; v++ {
		f.Add(encodeSubscription(v, []string{"a", "b"}, []byte("u")))
	}
	f.Add([]byte{0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, ok := subscriptionTopics(b)
		if len(b) < 2 {
			return
		}
		if len(b) >= 6 && int32(binary.BigEndian.Uint32(b[2:])) < 0 {
			// A null topic array: franz-go reads it as empty, Kafka's generated reader
			// (ConsumerProtocolSubscription, topics not nullable) throws.
			if ok {
				t.Fatalf("%x: a null topic array read as %v", b, got)
			}
			return
		}
		v0 := append([]byte{0, 0}, b[2:]...) // the same fields, read as version 0
		var m kmsg.ConsumerMemberMetadata
		if err := m.ReadFrom(v0); err != nil {
			if ok {
				t.Fatalf("franz-go cannot read %x as version 0, offsettui read %v", b, got)
			}
			return
		}
		want := slices.Clone(m.Topics)
		slices.Sort(want)
		want = slices.Compact(want)
		if !ok || !slices.Equal(got, want) {
			t.Fatalf("%x: offsettui %v %v, franz-go %v", b, got, ok, want)
		}
	})
}
