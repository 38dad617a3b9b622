package logread

import (
	"strings"
	"testing"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// TestTopicConfigPolicy: a cleanup.policy the broker returns empty (Kafka 4.2+, KIP-1161) is
// read, never deleted by retention; one it leaves out, or that names a policy offsettui does
// not know, makes the topic's configs unknown with the reason.
func TestTopicConfigPolicy(t *testing.T) {
	entry := func(name, value string) *sarama.ConfigEntry { return &sarama.ConfigEntry{Name: name, Value: value} }
	retention := entry("retention.ms", "60000")
	for _, c := range []struct {
		name    string
		configs []*sarama.ConfigEntry
		policy  *string
		never   bool
		err     string
	}{
		{"empty", []*sarama.ConfigEntry{entry("cleanup.policy", ""), retention}, model.Ptr(""), true, ""},
		{"delete", []*sarama.ConfigEntry{entry("cleanup.policy", "delete"), retention}, model.Ptr("delete"), false, ""},
		{"compact,delete", []*sarama.ConfigEntry{entry("cleanup.policy", "compact,delete"), retention}, model.Ptr("compact,delete"), false, ""},
		{"not returned", []*sarama.ConfigEntry{retention}, nil, false, "no cleanup.policy returned for t"},
		{"a policy offsettui does not know", []*sarama.ConfigEntry{entry("cleanup.policy", "delete,archive"), retention},
			model.Ptr("delete,archive"), false, "cleanup.policy=delete,archive of t names a policy offsettui does not know"},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := topicConfig(&sarama.ResourceResponse{Type: sarama.TopicResource, Name: "t", Configs: c.configs})
			if (top.CleanupPolicy == nil) != (c.policy == nil) || (c.policy != nil && *top.CleanupPolicy != *c.policy) {
				t.Errorf("policy %v, want %v", top.CleanupPolicy, c.policy)
			}
			if top.NeverDeleted() != c.never || model.Deref(top.RetentionMs) != 60000 {
				t.Errorf("never deleted %v, retention.ms %v; want %v, 60000", top.NeverDeleted(), top.RetentionMs, c.never)
			}
			switch {
			case c.err == "" && top.Error != nil:
				t.Errorf("error %v, want none", top.Error)
			case c.err != "" && (top.Error == nil || !strings.Contains(top.Error.Message, c.err) || top.ConfigKnown()):
				t.Errorf("error %v (known %v), want one saying %q", top.Error, top.ConfigKnown(), c.err)
			}
		})
	}
}
