package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestTopicPolicyWords: what each cleanup.policy means for retention, and the topic's JSON.
func TestTopicPolicyWords(t *testing.T) {
	for _, c := range []struct {
		name                  string
		topic                 Topic
		known, deletes, never bool
		json                  string
	}{
		{"delete", Topic{Topic: "d", CleanupPolicy: Ptr("delete")}, true, true, false, `"cleanupPolicy":"delete","deletedByRetention":true`},
		{"compact", Topic{Topic: "c", CleanupPolicy: Ptr("compact")}, true, false, false, `"cleanupPolicy":"compact","deletedByRetention":false`},
		{"compact,delete", Topic{Topic: "cd", CleanupPolicy: Ptr("compact,delete")}, true, true, false, `"cleanupPolicy":"compact,delete","deletedByRetention":true`},
		{"empty", Topic{Topic: "e", CleanupPolicy: Ptr("")}, true, false, true, `"cleanupPolicy":"","deletedByRetention":false`},
		{"not returned", Topic{Topic: "n"}, false, false, false, `"cleanupPolicy":null,"deletedByRetention":null`},
		{"denied", Topic{Topic: "x", CleanupPolicy: Ptr(""), Error: &Error{Kind: KindDenied, Message: "no"}}, false, false, false, `"cleanupPolicy":"","deletedByRetention":null`},
	} {
		t.Run(c.name, func(t *testing.T) {
			tp := c.topic
			if tp.ConfigKnown() != c.known || tp.Deletes() != c.deletes || tp.NeverDeleted() != c.never {
				t.Errorf("known %v deletes %v never %v, want %v %v %v", tp.ConfigKnown(), tp.Deletes(), tp.NeverDeleted(), c.known, c.deletes, c.never)
			}
			b, err := json.Marshal(tp)
			if err != nil || !strings.Contains(string(b), c.json) {
				t.Errorf("JSON %s (%v), want it to hold %s", b, err, c.json)
			}
			var back Topic
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, tp) {
				t.Errorf("read back %+v (%v), want %+v", back, err, tp)
			}
		})
	}
}

// TestKnownPolicy: the names Kafka's cleanup.policy takes (and none: KIP-1161) are known;
// any other name is not, so a topic that carries one stays unknown.
func TestKnownPolicy(t *testing.T) {
	for s, want := range map[string]bool{"": true, " ": true, "delete": true, "compact": true, "compact,delete": true,
		"delete, compact": true, "delete,": false, "archive": false, "delete,archive": false, "Delete": false} {
		if got := KnownPolicy(s); got != want {
			t.Errorf("KnownPolicy(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzKnownPolicy: a policy called known either names nothing or names delete or compact,
// and one that names anything else is never known.
func FuzzKnownPolicy(f *testing.F) {
	for _, s := range []string{"", "delete", "compact,delete", " compact , delete ", "delete,", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !KnownPolicy(s) {
			return
		}
		if strings.TrimSpace(s) != "" && !policyHas(s, "delete") && !policyHas(s, "compact") {
			t.Fatalf("KnownPolicy(%q) but it names neither delete nor compact", s)
		}
		for _, part := range strings.Split(s, ",") {
			if p := strings.TrimSpace(part); strings.TrimSpace(s) != "" && p != "delete" && p != "compact" {
				t.Fatalf("KnownPolicy(%q) though it names %q", s, p)
			}
		}
	})
}
