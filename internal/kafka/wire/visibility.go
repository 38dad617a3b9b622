package wire

// Whether the principal can see every topic matters because Kafka's OffsetFetch
// for all of a group's topics silently leaves out the topics the principal may
// not Describe: a group's lag would look smaller than it is, and a group whose
// only topic is hidden would look like it has no commits (docs/kafka.md).
//
// Each Metadata request carries a probe: a topic name that does not exist. Kafka
// answers TOPIC_AUTHORIZATION_FAILED for a name the principal may not Describe,
// existing or not, and UNKNOWN_TOPIC_OR_PARTITION otherwise. The same request
// asks for the principal's cluster operations. All topics count as visible only
// when the probe is Describe-able and the principal holds CLUSTER_ACTION on the
// cluster, which only super users, brokers and clusters without an authorizer
// have; anything less may hide topics. A denied probe is told apart (probeDenied):
// it is the broker's word, where a missing CLUSTER_ACTION is only a possibility.

import (
	"crypto/rand"
	"encoding/hex"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// Whether the principal can see every topic matters because Kafka's OffsetFetch
// for all of a group's topics silently leaves out the topics the principal may
// not Describe: a group's lag would look smaller than it is, and a group whose
// only topic is hidden would look like it has no commits (docs/kafka.md).
//
// Each Metadata request carries a probe: a topic name that does not exist. Kafka
// answers TOPIC_AUTHORIZATION_FAILED for a name the principal may not Describe,
// existing or not, and UNKNOWN_TOPIC_OR_PARTITION otherwise. The same request
// asks for the principal's cluster operations. All topics count as visible only
// when the probe is Describe-able and the principal holds CLUSTER_ACTION on the
// cluster, which only super users, brokers and clusters without an authorizer
// have; anything less may hide topics. A denied probe is told apart (probeDenied):
// it is the broker's word, where a missing CLUSTER_ACTION is only a possibility.

// aclClusterAction is the bit of CLUSTER_ACTION in authorized-operation fields.
const aclClusterAction = 1 << 9

// probeTopicName returns a fresh name that no real topic has.
func probeTopicName() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "__offsettui-visibility-probe-" + hex.EncodeToString(b[:])
}

// readProbe takes the probe's entry out of a Metadata answer and reads what it
// says; version is the version the request was sent with.
func readProbe(resp *sarama.MetadataResponse, probe string, version int16) metadataAnswer {
	ans := metadataAnswer{resp: resp, clusterID: resp.ClusterID}
	i := slices.IndexFunc(resp.Topics, func(t *sarama.TopicMetadata) bool { return t.Name == probe })
	if i < 0 {
		return ans
	}
	probeErr := resp.Topics[i].Err
	resp.Topics = slices.Delete(resp.Topics, i, i+1)
	switch {
	case probeErr == sarama.ErrTopicAuthorizationFailed:
		ans.visible, ans.probeDenied = model.Ptr(false), true
	case probeErr != sarama.ErrUnknownTopicOrPartition:
		// Anything else says nothing about authorization.
	case version < 8 || resp.ClusterAuthorizedOperations < 0:
		// The broker did not report the principal's cluster operations.
	default:
		ans.visible = model.Ptr(resp.ClusterAuthorizedOperations&aclClusterAction != 0)
	}
	return ans
}
