package wire

// Where a group's records live: the topic every group commits to, and its partition.

// OffsetsTopic is Kafka's internal topic of group metadata and commits.
const OffsetsTopic = "__consumer_offsets"

// OffsetsPartition is the partition of __consumer_offsets that holds group's records:
// Java's String.hashCode of the group id (over UTF-16 code units), its absolute value
// (Kafka's Utils.abs: 0 for math.MinInt32), modulo the partition count
// (GroupCoordinatorService.partitionFor in Kafka's group-coordinator). It allocates
// nothing: it runs once per group of a snapshot.
func OffsetsPartition(group string, partitions int32) int32 {
	var h int32
	for _, r := range group {
		if r >= 0x10000 { // a surrogate pair in UTF-16
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	switch {
	case h == -1<<31:
		h = 0
	case h < 0:
		h = -h
	}
	return h % partitions
}
