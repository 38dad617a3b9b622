package model

import (
	"bytes"
	"encoding/json"
)

// partitionJSON is GroupPartition as JSON, every field in one object in the order of
// docs/json.md (report's writer writes the same bytes field by field).
type partitionJSON struct {
	Topic              string              `json:"topic"`
	Partition          int32               `json:"partition"`
	Low                *int64              `json:"low"`
	High               *int64              `json:"high"`
	LastStable         *int64              `json:"lastStable"`
	Committed          *int64              `json:"committed"`
	StartOffset        *int64              `json:"startOffset"`
	Lag                *int64              `json:"lag"`
	Status             Status              `json:"status"`
	Lost               *int64              `json:"lost"`
	Beyond             *int64              `json:"beyond"`
	CommittedTimestamp *Stamp              `json:"committedTimestamp"`
	TimeLagMs          *int64              `json:"timeLagMs"`
	ExpiresInMs        *int64              `json:"expiresInMs"`
	Member             *MemberRef          `json:"member"`
	Subscribed         *bool               `json:"subscribed"`
	TransactionMarkers *TransactionMarkers `json:"transactionMarkers"`
	MarkersUnknown     *string             `json:"markersUnknown"`
	LocalLow           *int64              `json:"localLow"`
	ReadsRemote        *bool               `json:"readsRemote"`
	Compaction         *Compaction         `json:"compaction"`
	Error              *Error              `json:"error"`
	Time               *PartitionTime      `json:"time"`
	Change             *PartitionChange    `json:"change"`
	CommitsExpireAt    *Stamp              `json:"commitsExpireAt"`
	CommitsExpireBy    ExpiryRule          `json:"commitsExpireBy"`
}

// MarshalJSON writes the row with its detail, every field present (null when absent).
// It leaves <, > and & as they are: the encoder that called it escapes them when it is
// told to (encoding/json does so with a marshaler's output).
func (p GroupPartition) MarshalJSON() ([]byte, error) {
	d := p.Detail()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err := enc.Encode(partitionJSON{
		Topic: p.Topic, Partition: p.Partition, Low: p.Low, High: p.High, LastStable: p.LastStable,
		Committed: p.Committed, StartOffset: d.StartOffset, Lag: p.Lag, Status: p.Status,
		Lost: d.Lost, Beyond: d.Beyond, CommittedTimestamp: d.CommittedTimestamp, TimeLagMs: p.TimeLagMs,
		ExpiresInMs: p.ExpiresInMs, Member: p.Member, Subscribed: p.Subscribed,
		TransactionMarkers: d.TransactionMarkers, MarkersUnknown: d.MarkersUnknown, LocalLow: d.LocalLow,
		ReadsRemote: d.ReadsRemote, Compaction: d.Compaction, Error: p.Error, Time: p.Time, Change: d.Change,
		CommitsExpireAt: p.CommitsExpireAt, CommitsExpireBy: p.CommitsExpireBy,
	})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
}

// UnmarshalJSON reads what MarshalJSON writes (a baseline, a test's snapshot).
func (p *GroupPartition) UnmarshalJSON(b []byte) error {
	var j partitionJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*p = GroupPartition{
		Topic: j.Topic, Partition: j.Partition, Status: j.Status, Low: j.Low, High: j.High,
		LastStable: j.LastStable, Committed: j.Committed, Lag: j.Lag, TimeLagMs: j.TimeLagMs, ExpiresInMs: j.ExpiresInMs,
		Member: j.Member, Subscribed: j.Subscribed, Error: j.Error,
		CommitsExpireAt: j.CommitsExpireAt, CommitsExpireBy: j.CommitsExpireBy, Time: j.Time,
	}
	p.SetDetail(PartitionDetail{
		StartOffset: j.StartOffset, Lost: j.Lost, Beyond: j.Beyond, CommittedTimestamp: j.CommittedTimestamp,
		TransactionMarkers: j.TransactionMarkers, MarkersUnknown: j.MarkersUnknown,
		LocalLow: j.LocalLow, ReadsRemote: j.ReadsRemote, Compaction: j.Compaction, Change: j.Change,
	})
	return nil
}
