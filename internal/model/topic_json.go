package model

import (
	"bytes"
	"encoding/json"
)

// topicJSON is Topic as JSON in the order of docs/json.md, with what its policy means for
// retention (deletedByRetention) beside the policy.
type topicJSON struct {
	Topic               string  `json:"topic"`
	Partitions          int     `json:"partitions"`
	CleanupPolicy       *string `json:"cleanupPolicy"`
	DeletedByRetention  *bool   `json:"deletedByRetention"`
	RetentionMs         *int64  `json:"retentionMs"`
	RetentionBytes      *int64  `json:"retentionBytes"`
	DeleteRetentionMs   *int64  `json:"deleteRetentionMs"`
	RemoteStorage       *bool   `json:"remoteStorageEnable"`
	LocalRetentionMs    *int64  `json:"localRetentionMs"`
	LocalRetentionBytes *int64  `json:"localRetentionBytes"`
	Error               *Error  `json:"error"`
}

// MarshalJSON writes the topic with deletedByRetention (null when the policy is not known).
// It leaves <, > and & as they are: the encoder that called it escapes them when told to.
func (t Topic) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(topicJSON{Topic: t.Topic, Partitions: t.Partitions, CleanupPolicy: t.CleanupPolicy,
		DeletedByRetention: t.DeletedByRetention(), RetentionMs: t.RetentionMs, RetentionBytes: t.RetentionBytes,
		DeleteRetentionMs: t.DeleteRetentionMs, RemoteStorage: t.RemoteStorage, LocalRetentionMs: t.LocalRetentionMs,
		LocalRetentionBytes: t.LocalRetentionBytes, Error: t.Error})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}
