package faultproxy

import (
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// saslCase is one SASL login, for franz-go and for offsettui's own client
// (sarama, configured the way --command-config does).
type saslCase struct {
	name  string
	mech  sasl.Mechanism
	props map[string]string
}

func saslLogin(mech, user, pass string) saslCase {
	module := "org.apache.kafka.common.security.scram.ScramLoginModule"
	var m sasl.Mechanism
	switch mech {
	case "PLAIN":
		module, m = "org.apache.kafka.common.security.plain.PlainLoginModule", plain.Auth{User: user, Pass: pass}.AsMechanism()
	case "SCRAM-SHA-256":
		m = scram.Auth{User: user, Pass: pass}.AsSha256Mechanism()
	case "SCRAM-SHA-512":
		m = scram.Auth{User: user, Pass: pass}.AsSha512Mechanism()
	}
	return saslCase{name: mech, mech: m, props: map[string]string{
		"security.protocol": "SASL_PLAINTEXT",
		"sasl.mechanism":    mech,
		"sasl.jaas.config":  module + ` required username="` + user + `" password="` + pass + `";`,
	}}
}

// TestSASLPassesThrough: SaslHandshake and SaslAuthenticate pass the proxy
// untouched, for franz-go and sarama, with PLAIN and SCRAM.
func TestSASLPassesThrough(t *testing.T) {
	k := kafkatest.Cluster(t, kfake.EnableSASL(),
		kfake.Superuser("PLAIN", "plain", "plain-secret"), kfake.Superuser("SCRAM-SHA-256", "scram", "scram-secret"))
	if err := k.CreateTopic("t", 1, nil); err != nil {
		t.Fatal(err)
	}
	for _, login := range []saslCase{saslLogin("PLAIN", "plain", "plain-secret"), saslLogin("SCRAM-SHA-256", "scram", "scram-secret")} {
		t.Run(login.name, func(t *testing.T) { testSASL(t, k.ListenAddrs(), login, "t") })
	}
}

func TestRealKafkaSASLPassesThrough(t *testing.T) {
	addr := realkafka.SASLAddr(t)
	s := realkafka.NewSeed(t, realkafka.Addr(t))
	topic := realkafka.Name("sasl")
	s.CreateTopic(topic, 1, nil)
	for _, login := range []saslCase{saslLogin("PLAIN", "admin", "admin-secret"), saslLogin("SCRAM-SHA-512", "admin", "admin-secret")} {
		t.Run(login.name, func(t *testing.T) { testSASL(t, []string{addr}, login, topic) })
	}
}

// testSASL commits through the proxy with franz-go, reads the commit back with
// sarama through the proxy, and checks that every connection logged in.
func testSASL(t *testing.T, upstream []string, login saslCase, topic string) {
	p := New(t, upstream, kgo.SASL(login.mech))
	cl, log := client(t, p.Addrs(), kgo.SASL(login.mech))
	group := realkafka.Name("sasl")
	offsets := kadm.Offsets{}
	offsets.Add(kadm.Offset{Topic: topic, Partition: 0, At: 3, LeaderEpoch: -1})
	resp, err := kadm.NewClient(cl).CommitOffsets(ctxFor(t, 20*time.Second), group, offsets)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("commit through the proxy: %v (%s)", err, p.Summary())
	}
	snapshotThrough(t, p.Addrs(), login.props, group, model.TP{Topic: topic, Partition: 0}, 3)
	cl.Close()
	checkStayed(t, p, []kmsg.Key{kmsg.SASLHandshake, kmsg.SASLAuthenticate, kmsg.FindCoordinator,
		kmsg.OffsetCommit, kmsg.OffsetFetch}, log)
	conns, auths := p.Connections(AnyBroker), p.Requests(AnyBroker, kmsg.SASLAuthenticate)
	if p.Requests(AnyBroker, kmsg.SASLHandshake) != conns || auths < conns {
		t.Errorf("%d connections, %d SaslHandshake, %d SaslAuthenticate; want a login on each: %s",
			conns, p.Requests(AnyBroker, kmsg.SASLHandshake), auths, p.Summary())
	}
}
