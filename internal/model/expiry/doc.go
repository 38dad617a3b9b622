// Package expiry is the commit-expiry clock: when the broker may delete a group's commits,
// counted for each partition and for the group from the rule of the group's type and state
// (model.Group.ExpiryRule), the commit and Empty times read from __consumer_offsets and
// offsets.retention.minutes; and the same clock counted again over the partitions a
// narrowed snapshot keeps. It is pure: no I/O.
package expiry
