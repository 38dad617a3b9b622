package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestDescribeSaysWhatTheBrokersCannotBeAsked: the table names the brokers' Kafka line on its
// first line and, under it, each question they cannot be asked with what follows; a snapshot
// whose versions are not known says neither.
func TestDescribeSaysWhatTheBrokersCannotBeAsked(t *testing.T) {
	s := snapshot()
	v := model.APIVersions{model.APIProduce: 9, model.APIOffsetFetch: 7, model.APIDescribeGroups: 5, model.APIListGroups: 4,
		model.APIApiVersions: 3, model.APIOffsetDelete: 0, model.APIDescribeCluster: 0} // Kafka 2.8.2's
	s.Cluster.KafkaVersion, s.Cluster.Capabilities = model.KafkaLine(v), model.ClusterCapabilities(v)
	var b bytes.Buffer
	if err := DescribeFit(&b, s, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if !strings.HasSuffix(lines[0], " · Kafka 2.8") {
		t.Errorf("first line %q", lines[0])
	}
	if lines[1] != "Kafka 2.8 (by the brokers' ApiVersions): 5 questions cannot be asked:" ||
		!strings.HasPrefix(lines[2], "  ConsumerGroupDescribe (consumer-protocol-groups): ") ||
		!strings.HasPrefix(lines[5], "  OffsetFetch (batched-offset-fetch): OffsetFetch below v8 takes one group per request") {
		t.Errorf("capability lines:\n%s", strings.Join(lines[:7], "\n"))
	}
	b.Reset()
	if err := DescribeFit(&b, snapshot(), 0); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Kafka ") {
		t.Errorf("versions unknown, yet:\n%s", b.String())
	}
}
