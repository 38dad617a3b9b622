package model

// OffsetIndex finds a partition's watermarks by topic, then by partition: a
// loop over a group's rows, which come topic by topic, hashes a topic name
// once per topic instead of a topic partition per row. It answers exactly as
// the map it indexes: a partition the map lacks has zero PartitionOffsets.
type OffsetIndex struct {
	all     map[TP]PartitionOffsets
	byTopic map[string][]PartitionOffsets
}

// IndexOffsets indexes m, which must not change afterwards. Partitions 0 to
// n−1 of a topic with n entries are held in a slice; any other partition
// number (a sparse or bogus one) is looked up in m.
func IndexOffsets(m map[TP]PartitionOffsets) OffsetIndex {
	count := map[string]int{}
	for tp := range m {
		count[tp.Topic]++
	}
	x := OffsetIndex{all: m, byTopic: make(map[string][]PartitionOffsets, len(count))}
	for t, n := range count {
		x.byTopic[t] = make([]PartitionOffsets, n)
	}
	for tp, po := range m {
		if s := x.byTopic[tp.Topic]; tp.Partition >= 0 && int(tp.Partition) < len(s) {
			s[tp.Partition] = po
		}
	}
	return x
}

// TopicOffsets are one topic's watermarks.
type TopicOffsets struct {
	topic string
	parts []PartitionOffsets
	all   map[TP]PartitionOffsets
}

// Topic returns the watermarks of topic's partitions.
func (x OffsetIndex) Topic(topic string) TopicOffsets {
	return TopicOffsets{topic: topic, parts: x.byTopic[topic], all: x.all}
}

// Name is the topic these offsets belong to.
func (t TopicOffsets) Name() string { return t.topic }

// Get returns partition p's watermarks, as the indexed map has them.
func (t TopicOffsets) Get(p int32) PartitionOffsets {
	if p >= 0 && int(p) < len(t.parts) {
		return t.parts[p]
	}
	return t.all[TP{t.topic, p}]
}
