package lance

import "github.com/apache/arrow-go/v18/arrow/bitutil"

// concatVals joins the values of a page's chunks (one part is returned as
// it is). All parts must have the same shape.
func (d *dec) concatVals(parts []*vals) (*vals, error) {
	if len(parts) == 1 {
		return parts[0], nil
	}
	n := 0
	for _, p := range parts {
		n += p.n
	}
	var proto *vals
	for _, p := range parts {
		if !p.null {
			proto = p
			break
		}
	}
	if proto == nil {
		return &vals{n: n, null: true}, nil
	}
	out := &vals{n: n, bits: proto.bits, dims: proto.dims}
	for _, p := range parts {
		if p.null {
			continue
		}
		if p.bits != proto.bits || p.variable() != proto.variable() || len(p.dims) != len(proto.dims) || len(p.kids) != len(proto.kids) {
			return nil, d.corrupt("chunks of one page decode to different shapes")
		}
		for i := range p.dims {
			if p.dims[i] != proto.dims[i] || (p.valid[i] == nil) != (proto.valid[i] == nil) {
				return nil, d.corrupt("chunks of one page decode to different shapes")
			}
		}
	}
	switch {
	case proto.kids != nil:
		out.kids = make([]*vals, len(proto.kids))
		for k := range proto.kids {
			sub := make([]*vals, len(parts))
			for i, p := range parts {
				if p.null {
					sub[i] = &vals{n: p.n, null: true}
				} else {
					sub[i] = p.kids[k]
				}
			}
			kv, err := d.concatVals(sub)
			if err != nil {
				return nil, err
			}
			out.kids[k] = kv
		}
	case proto.variable():
		var total int64
		for _, p := range parts {
			if !p.null {
				total += p.offs[p.n] - p.offs[0]
			}
		}
		data, err := d.alloc(total, "joined values")
		if err != nil {
			return nil, err
		}
		offs, err := d.allocOffs(int64(n)+1, "offsets")
		if err != nil {
			return nil, err
		}
		pos, at := int64(0), 0
		for _, p := range parts {
			if p.null {
				for i := 0; i < p.n; i++ {
					offs[at+i+1] = pos
				}
				at += p.n
				continue
			}
			copy(data[pos:], p.data[p.offs[0]:p.offs[p.n]])
			for i := 0; i < p.n; i++ {
				offs[at+i+1] = pos + p.offs[i+1] - p.offs[0]
			}
			pos += p.offs[p.n] - p.offs[0]
			at += p.n
		}
		out.data, out.offs = data, offs
	default:
		items := proto.items()
		sz, ok := fixedBytes(n*items, proto.bits)
		if !ok {
			return nil, d.corrupt("joined values too large")
		}
		data, err := d.alloc(sz, "joined values")
		if err != nil {
			return nil, err
		}
		out.data = data
		out.valid = make([][]byte, len(proto.dims))
		cnt := n
		for k, dk := range proto.dims {
			cnt *= dk
			if proto.valid[k] != nil {
				if out.valid[k], err = d.alloc(int64(bitutil.BytesForBits(int64(cnt))), "joined validity"); err != nil {
					return nil, err
				}
			}
		}
		at := 0 // values written
		for _, p := range parts {
			if !p.null {
				if proto.bits == 1 {
					bitutil.CopyBitmap(p.data, 0, p.n*items, data, at*items)
				} else {
					w := proto.bits / 8
					copy(data[at*items*w:], p.data[:p.n*items*w])
				}
				per := 1
				for k, dk := range proto.dims {
					per *= dk
					if out.valid[k] != nil {
						bitutil.CopyBitmap(p.valid[k], 0, p.n*per, out.valid[k], at*per)
					}
				}
			} else {
				per := 1
				for k, dk := range proto.dims {
					per *= dk
					if out.valid[k] != nil {
						bitutil.SetBitsTo(out.valid[k], int64(at*per), int64(p.n*per), false)
					}
				}
			}
			at += p.n
		}
	}
	return out, nil
}
