package kafka_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// TestErrorsInWords: what offsettui says of a failure is a sentence with Kafka's code in
// it, never the client library's text: the commit log of a cluster without
// __consumer_offsets (the demo's) said "metadata: kafka server: Request was for a topic or
// partition that does not exist on this broker"; a topic that does not exist says Kafka's
// description after what failed.
func TestErrorsInWords(t *testing.T) {
	k := kafkatest.Cluster(t)
	if err := k.CreateTopic("orders", 1, nil); err != nil {
		t.Fatal(err)
	}
	kafkatest.NewSeed(t, k.ListenAddrs()).Commit("billing", map[model.TP]int64{{Topic: "orders", Partition: 0}: 0})
	c := newClient(t, k.ListenAddrs(), time.Now)
	got, _ := c.ReadCommitLog(context.Background(), []string{"billing"}, kafka.CommitLogOptions{})
	l := got["billing"]
	if l == nil || l.Status != model.CommitLogFailed || l.Reason != "the cluster has no __consumer_offsets topic to read them from: "+
		"its metadata answers UNKNOWN_TOPIC_OR_PARTITION, as for the demo's in-process brokers, which keep commits in memory" {
		t.Errorf("commit log %+v: want it failed, saying the cluster has no __consumer_offsets", l)
	}
	errs, err := c.TopicErrors(context.Background(), []string{"nosuch", "orders"})
	if err != nil {
		t.Fatal(err)
	}
	e := errs["nosuch"]
	if len(errs) != 1 || e == nil || e.Kind != model.KindNotFound || e.Code == nil || *e.Code != "UNKNOWN_TOPIC_OR_PARTITION" ||
		strings.Contains(e.Message, "kafka server") || !strings.HasPrefix(e.Message, "metadata: ") {
		t.Errorf("topic errors %v: want nosuch not found (UNKNOWN_TOPIC_OR_PARTITION), in Kafka's words after what failed", errs)
	}
}
