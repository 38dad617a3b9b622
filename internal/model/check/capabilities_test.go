package check

import (
	"slices"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// versions28 and versions37 are the ApiVersions maxima Kafka 2.8.2 and 3.7.2 advertised (the
// keys the capability rules read).
var (
	versions28 = model.APIVersions{model.APIProduce: 9, model.APIOffsetFetch: 7, model.APIDescribeGroups: 5, model.APIListGroups: 4,
		model.APIApiVersions: 3, model.APIOffsetDelete: 0, model.APIDescribeCluster: 0}
	versions37 = model.APIVersions{model.APIProduce: 10, model.APIOffsetFetch: 9, model.APIDescribeGroups: 5, model.APIListGroups: 4,
		model.APIApiVersions: 3, model.APIOffsetDelete: 0, model.APIDescribeCluster: 1, model.APIConsumerGroupBeat: 0}
)

func withVersions(s model.Snapshot, v model.APIVersions) model.Snapshot {
	s.Cluster.KafkaVersion, s.Cluster.Capabilities = model.KafkaLine(v), model.ClusterCapabilities(v)
	return s
}

// TestCheckNeverPassesOnAnUnaskedQuestion: a group read with a request the brokers lack is
// incomplete, naming it; a group Kafka 3.7 may run as a consumer-protocol group it cannot
// describe is too; a classic group on Kafka 2.8, which needs none of what 2.8 lacks, passes.
func TestCheckNeverPassesOnAnUnaskedQuestion(t *testing.T) {
	ok := ckPart(0, 0, 10, model.Ptr(int64(10)), model.StatusOK)
	classic := withVersions(one(ok), versions28)
	r := Check(classic, "g", Options{})
	if r.Verdict != VerdictPass || slices.Contains(codes(r.Problems), CodeCannotAsk) {
		t.Errorf("classic on 2.8: %s, notes %v, problems %v", r.Verdict, codes(r.Notes), codes(r.Problems))
	}
	for _, c := range []struct {
		name  string
		typ   string
		state string
		v     model.APIVersions
	}{
		{"a streams group on 2.8", model.TypeStreams, "Empty", versions28},
		{"a consumer-protocol group on 3.7", model.TypeConsumer, "Empty", versions37},
		{"a Dead classic group without members on 3.7", model.TypeClassic, "Dead", versions37},
	} {
		s := withVersions(one(ok), c.v)
		s.Groups[0].Type, s.Groups[0].State = c.typ, c.state
		r := Check(s, "g", Options{})
		if r.Verdict != VerdictIncomplete || !slices.Contains(codes(r.Problems), CodeCannotAsk) {
			t.Errorf("%s: %s, problems %v", c.name, r.Verdict, codes(r.Problems))
		}
	}
	// The same Dead classic group on 2.8, which runs no consumer-protocol group, passes.
	s := withVersions(one(ok), versions28)
	s.Groups[0].State = "Dead"
	if r := Check(s, "g", Options{}); slices.Contains(codes(r.Problems), CodeCannotAsk) {
		t.Errorf("Dead classic group on 2.8: problems %v", codes(r.Problems))
	}
	// Versions not known: nothing is claimed either way.
	if r := Check(one(ok), "g", Options{}); r.Verdict != VerdictPass {
		t.Errorf("versions unknown: %s, problems %v", r.Verdict, codes(r.Problems))
	}
}
