// Package kafka is offsettui's only door to a Kafka cluster: Client, built by
// NewContext, is what the rest of the program reads and writes a cluster with. The
// work is done in its rooms, one job each, every one sending through the first:
//
//   - wire: the connection and the call policy: brokers, Metadata, ApiVersions,
//     FindCoordinator, sarama for what it speaks and franz-go's kgo for the rest.
//   - groupread: groups from their coordinators (list, describe, committed offsets).
//   - logread: partitions from their leaders (watermarks, timestamps, markers,
//     compacted reads, local starts) and configs.
//   - commitlog: __consumer_offsets, forward and backwards.
//   - snapshot: the three readers into one observation and snapshot, and a plan's input.
//   - write: commits, offset deletes, group deletes, share offsets.
//
// Only this package and its rooms import sarama. None ever joins a consumer group.
package kafka
