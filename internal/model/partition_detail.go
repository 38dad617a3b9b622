package model

// The getters and setters of GroupPartition's detail (types.go). A setter copies the
// detail before it writes: rows copied from one snapshot into another share it, and a
// write to one must not show in the other.

// Detail returns the row's detail values (all nil when it has none).
func (p *GroupPartition) Detail() PartitionDetail {
	if p.detail == nil {
		return PartitionDetail{}
	}
	return *p.detail
}

// SetDetail replaces the row's detail values.
func (p *GroupPartition) SetDetail(d PartitionDetail) {
	if d == (PartitionDetail{}) {
		p.detail = nil
		return
	}
	p.detail = &d
}

// edit returns a copy of the detail for a setter to write and keep.
func (p *GroupPartition) edit() *PartitionDetail {
	d := p.Detail()
	p.detail = &d
	return p.detail
}

// read is the detail to read from: an empty one when the row has none. Only the
// getters below use it; they return nil where the row has no such value.
func (p *GroupPartition) read() *PartitionDetail {
	if p.detail == nil {
		return &noDetail
	}
	return p.detail
}

var noDetail PartitionDetail

func (p *GroupPartition) StartOffset() *int64                     { return p.read().StartOffset }
func (p *GroupPartition) Lost() *int64                            { return p.read().Lost }
func (p *GroupPartition) Beyond() *int64                          { return p.read().Beyond }
func (p *GroupPartition) CommittedTimestamp() *Stamp              { return p.read().CommittedTimestamp }
func (p *GroupPartition) TransactionMarkers() *TransactionMarkers { return p.read().TransactionMarkers }
func (p *GroupPartition) MarkersUnknown() *string                 { return p.read().MarkersUnknown }
func (p *GroupPartition) LocalLow() *int64                        { return p.read().LocalLow }
func (p *GroupPartition) ReadsRemote() *bool                      { return p.read().ReadsRemote }
func (p *GroupPartition) Compaction() *Compaction                 { return p.read().Compaction }
func (p *GroupPartition) Change() *PartitionChange                { return p.read().Change }

// The setters; each copies the detail first (edit).
func (p *GroupPartition) SetStartOffset(v *int64) {
	setDetail(p, v, func(d *PartitionDetail) **int64 { return &d.StartOffset })
}

func (p *GroupPartition) SetLost(v *int64) {
	setDetail(p, v, func(d *PartitionDetail) **int64 { return &d.Lost })
}

func (p *GroupPartition) SetBeyond(v *int64) {
	setDetail(p, v, func(d *PartitionDetail) **int64 { return &d.Beyond })
}

func (p *GroupPartition) SetCommittedTimestamp(v *Stamp) {
	setDetail(p, v, func(d *PartitionDetail) **Stamp { return &d.CommittedTimestamp })
}

func (p *GroupPartition) SetTransactionMarkers(v *TransactionMarkers) {
	setDetail(p, v, func(d *PartitionDetail) **TransactionMarkers { return &d.TransactionMarkers })
}

func (p *GroupPartition) SetMarkersUnknown(v *string) {
	setDetail(p, v, func(d *PartitionDetail) **string { return &d.MarkersUnknown })
}

func (p *GroupPartition) SetLocalLow(v *int64) {
	setDetail(p, v, func(d *PartitionDetail) **int64 { return &d.LocalLow })
}

func (p *GroupPartition) SetReadsRemote(v *bool) {
	setDetail(p, v, func(d *PartitionDetail) **bool { return &d.ReadsRemote })
}

func (p *GroupPartition) SetCompaction(v *Compaction) {
	setDetail(p, v, func(d *PartitionDetail) **Compaction { return &d.Compaction })
}

func (p *GroupPartition) SetChange(v *PartitionChange) {
	setDetail(p, v, func(d *PartitionDetail) **PartitionChange { return &d.Change })
}

// setDetail sets one detail field to v; setting what is there already (nil on a row
// without detail, most often) copies nothing.
func setDetail[T any](p *GroupPartition, v *T, field func(*PartitionDetail) **T) {
	if *field(p.read()) == v {
		return
	}
	*field(p.edit()) = v
	if *p.detail == (PartitionDetail{}) {
		p.detail = nil
	}
}

// With returns p with detail d: a row written whole, as fixtures write them.
func (p GroupPartition) With(d PartitionDetail) GroupPartition {
	p.SetDetail(d)
	return p
}
