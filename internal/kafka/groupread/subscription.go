package groupread

import (
	"encoding/binary"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// classicSubscription reads a classic member's subscription from its JoinGroup metadata
// (DescribeGroups gives it for Stable groups only) when the group's protocol type is
// "consumer"; nil otherwise, or when the metadata cannot be read.
func classicSubscription(protocolType string, m *sarama.GroupMemberDescription) *model.Subscription {
	if protocolType != "consumer" || len(m.MemberMetadata) == 0 {
		return nil
	}
	topics, ok := subscriptionTopics(m.MemberMetadata)
	if !ok {
		return nil
	}
	return &model.Subscription{Topics: topics}
}

// subscriptionTopics reads the topics of a consumer protocol subscription as Kafka's group
// coordinator does (ClassicGroup.computeSubscribedTopics): the version, then the fields of
// version 0, which every later version starts with — the topics (an array of strings) and
// the user data (nullable bytes); what follows is left unread. ok is false when the bytes do
// not hold them. The topics come back sorted and distinct.
func subscriptionTopics(b []byte) (topics []string, ok bool) {
	if len(b) < 2+4 {
		return nil, false
	}
	b = b[2:] // the version: every version starts with version 0's fields
	n := int32(binary.BigEndian.Uint32(b))
	b = b[4:]
	if n < 0 || int(n) > len(b)/2 { // each topic takes at least its 2-byte length
		return nil, false
	}
	topics = make([]string, 0, n)
	for range n {
		if len(b) < 2 {
			return nil, false
		}
		l := int16(binary.BigEndian.Uint16(b))
		b = b[2:]
		if l < 0 || int(l) > len(b) {
			return nil, false
		}
		topics = append(topics, string(b[:l]))
		b = b[l:]
	}
	if len(b) < 4 { // the user data's length
		return nil, false
	}
	// A negative length is null, as Kafka's generated readers take it.
	if l := int32(binary.BigEndian.Uint32(b)); int64(l) > int64(len(b)-4) {
		return nil, false
	}
	slices.Sort(topics)
	return slices.Compact(topics), true
}

// consumerSubscription is a consumer-protocol member's subscription (ConsumerGroupDescribe).
func consumerSubscription(names []string, regex *string) *model.Subscription {
	topics := slices.Clone(names)
	slices.Sort(topics)
	s := &model.Subscription{Topics: slices.Compact(topics)}
	if s.Topics == nil {
		s.Topics = []string{}
	}
	if regex != nil && *regex != "" {
		s.Regex = model.Ptr(*regex)
	}
	return s
}
