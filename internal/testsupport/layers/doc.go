// Package layers holds no code: its test reads the map of the module
// (docs/architecture.md), holds it as an allowlist, per package, of what it may import,
// and checks both with `go list`. A package missing from the map fails, so does an
// import the map does not list; the pure packages (internal/model and below,
// internal/text, internal/display) import no I/O; and the rules of docs/testing.md
// hold through any path: sarama only under internal/kafka and cmd/offsettui, views
// without report, reset or kafka, report without kafka, kafka without views,
// reset or report, internal/kafka's rooms reached from outside only through its
// Client, its connection layer (wire) below every other room and no reader
// importing its writer, test support (internal/testsupport/...) imported by tests
// only. TestSizes holds the product's functions to 80 lines and its types to 30
// methods; TestKafkaPaths holds the ways down from kafka.Client to sarama that
// docs/architecture.md lists to the code.
package layers
