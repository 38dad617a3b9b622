// Package wire is internal/kafka's connection to a cluster and the one way a request
// reaches a broker. Conn keeps the known brokers (learned from Metadata, dropped
// after a failure until the next snapshot), their sarama connections and franz-go's
// kgo client for the requests sarama lacks (docs/design-wire.md), both configured
// from one clientconfig.Settings. Call and CallOnce send a sarama request within
// --timeout, a read once more on a fresh connection when its connection dropped;
// KgoRead, KgoPipelined and KgoWrite do the same for kgo. It also holds what every
// reader above it shares: Metadata of the topics a read names, ApiVersions,
// FindCoordinator, the pacing of re-asks while a coordinator or leader moves, and
// Kafka's error codes as model.Errors in words.
package wire
