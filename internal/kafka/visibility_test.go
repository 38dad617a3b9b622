package kafka_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// aclCluster is a kfake cluster with ACLs: admin is a super user; alice may
// describe group g and topic seen, nothing else; bob may describe every topic but is
// no super user.
func aclCluster(t *testing.T) *kfake.Cluster {
	t.Helper()
	allow := func(res kmsg.ACLResourceType, name string, op kmsg.ACLOperation) kfake.ACL {
		return kfake.ACL{Resource: res, Name: name, Pattern: kmsg.ACLResourcePatternTypeLiteral, Operation: op, Allow: true}
	}
	return kafkatest.Cluster(t, kfake.EnableSASL(), kfake.EnableACLs(),
		kfake.Superuser("PLAIN", "admin", "admin-secret"),
		kfake.User("PLAIN", "alice", "alice-secret",
			allow(kmsg.ACLResourceTypeGroup, "g", kmsg.ACLOperationDescribe),
			allow(kmsg.ACLResourceTypeTopic, "seen", kmsg.ACLOperationDescribe)),
		kfake.User("PLAIN", "bob", "bob-secret",
			allow(kmsg.ACLResourceTypeGroup, "g", kmsg.ACLOperationDescribe),
			allow(kmsg.ACLResourceTypeTopic, "*", kmsg.ACLOperationDescribe)),
		kfake.SeedTopics(1, "seen", "hidden"))
}

func saslClient(t *testing.T, k *kfake.Cluster, user, pass string) *kafka.Client {
	t.Helper()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 5 * time.Second, Client: withProps(t, map[string]string{
		"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
		"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="` + user + `" password="` + pass + `";`,
	})})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestVisibilityProbe: a principal limited by ACLs is told that topics may be
// hidden from it (Kafka's OffsetFetch would leave their commits out without a
// word): with Kafka's TOPIC_AUTHORIZATION_FAILED when the broker denied it the probe,
// without a code when it is only not a super user; a super user and a cluster without
// ACLs see everything.
func TestVisibilityProbe(t *testing.T) {
	k := aclCluster(t)
	for _, c := range []struct {
		name string
		cl   *kafka.Client
		want bool
		code string // the note's code
		says string // in the note's message
	}{
		{"alice", saslClient(t, k, "alice", "alice-secret"), false, "TOPIC_AUTHORIZATION_FAILED", "the broker denied it a topic name"},
		{"bob", saslClient(t, k, "bob", "bob-secret"), false, "", "ACLs may hide topics"},
		{"admin", saslClient(t, k, "admin", "admin-secret"), true, "", ""},
		{"no ACLs", newClient(t, kafkatest.Cluster(t).ListenAddrs(), nil), true, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			snap, err := c.cl.Snapshot(context.Background(), model.Query{})
			if err != nil {
				t.Fatal(err)
			}
			v := snap.Cluster.AllTopicsVisible
			if v == nil || *v != c.want {
				t.Fatalf("allTopicsVisible = %v, want %v", v, c.want)
			}
			noted := false
			for _, e := range snap.Errors {
				if !e.IsVisibilityNote() {
					continue
				}
				noted = true
				if model.Deref(e.Code) != c.code || !strings.Contains(e.Message, c.says) {
					t.Errorf("note %s (code %q); want code %q and %q", e.Message, model.Deref(e.Code), c.code, c.says)
				}
			}
			if noted == c.want {
				t.Errorf("errors %+v: visibility note present = %v, want %v", snap.Errors, noted, !c.want)
			}
			if snap.Cluster.ID == nil || *snap.Cluster.ID == "" {
				t.Errorf("cluster id not read")
			}
		})
	}
}

// TestDeniedGroupIsDenied: a group alice may not describe is reported with
// Kafka's GROUP_AUTHORIZATION_FAILED as denied, not as unreachable.
func TestDeniedGroupIsDenied(t *testing.T) {
	k := aclCluster(t)
	snap, err := saslClient(t, k, "alice", "alice-secret").Snapshot(context.Background(), model.Query{Groups: []string{"other"}})
	if err != nil {
		t.Fatal(err)
	}
	g := findGroup(t, snap, "other")
	if g.Error == nil || g.Error.Kind != model.KindDenied || g.Error.Code == nil || *g.Error.Code != "GROUP_AUTHORIZATION_FAILED" {
		t.Errorf("error %v, want denied GROUP_AUTHORIZATION_FAILED", g.Error)
	}
	if g.TotalLag != nil || g.WorstStatus != model.StatusUnknown {
		t.Errorf("totalLag %s, worst %s; want null and unknown", text.Num(g.TotalLag), g.WorstStatus)
	}
}
