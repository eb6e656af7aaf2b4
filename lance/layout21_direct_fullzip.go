package lance

// The direct decoder of 2.1/2.2 full-zip pages of fixed-width values (a
// top-level leaf or a leaf of a top-level struct, no repetition): every
// entry is a control word of 0, 1 or 2 bytes (the def level) then the
// value, so row i starts at byte i*(word+width). A read finds its rows by
// arithmetic and reads only their bytes, in steps of about 1 MiB, straight
// into the output: its memory is the batch, not the page (LanceDB writes a
// column of 768-float vectors as one 58 MB page).

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/colfmt/colfmt/internal/errs"
)

// fullZipStep is about how many bytes a full-zip direct read reads at once.
const fullZipStep = 1 << 20

// controlWordBytes is the size of a full-zip control word of b bits.
func controlWordBytes(b uint32) int {
	switch {
	case b == 0:
		return 0
	case b <= 8:
		return 1
	case b <= 16:
		return 2
	}
	return 4
}

// directFullZipPage reports whether the direct leaf decoder reads page p
// of a leaf of the given kind (a fixed width, of a whole fixed-size list
// of dim items when dim > 0) with the given number of item layers.
func directFullZipPage(p *page, kind, dim, layers int) bool {
	pl := p.layout
	if pl == nil || pl.err != nil || pl.kind != fullZip || kind <= 0 || pl.bitsRep != 0 || pl.bitsDef > 16 ||
		len(pl.layers) != layers || pl.value == nil || len(p.buffers) != 1 {
		return false
	}
	nullable := false
	for _, l := range pl.layers {
		switch l {
		case allValidItem:
		case nullableItem:
			nullable = true
		default:
			return false
		}
	}
	if !nullable && pl.bitsDef != 0 {
		return false
	}
	v := pl.value
	vb := 0 // item validity bytes of a value
	if dim > 0 {
		if v.kind != kFixedSizeList || int(v.dim) != dim || v.inner == nil ||
			v.inner.kind != kFlat || int(v.inner.bits)*dim != 8*kind {
			return false
		}
		if v.valid {
			vb = (dim + 7) / 8
		}
	} else if v.kind != kFlat || int(v.bits) != 8*kind {
		return false
	}
	if p.length < 0 || pl.numEntries != uint64(p.length) || pl.numVisible != uint64(p.length) ||
		uint64(pl.fixedBits) != 8*uint64(kind+vb) {
		return false
	}
	stride := int64(vb + kind + controlWordBytes(pl.bitsDef))
	size, ok := errs.MulSize(p.length, stride)
	return ok && p.buffers[0].size >= size
}

// directFullZip decodes rows [lo, hi) of a full-zip page (planned by
// directFullZipPage) into o.
func (r *reader) directFullZip(d *dec, o *directOut, p *page, lo, hi int) error {
	pl := p.layout
	w := o.kind
	cw := controlWordBytes(pl.bitsDef)
	vb, dim := 0, 0 // item validity bytes before each fixed-size list's items
	if pl.value.kind == kFixedSizeList && pl.value.valid {
		dim = int(pl.value.dim)
		vb = (dim + 7) / 8
		if o.ivalid == nil {
			iv, err := d.alloc((int64(o.n)*int64(dim)+7)/8, "fixed-size list validity")
			if err != nil {
				return err
			}
			o.ivalid = iv
			// Earlier pages of the batch had no item validity: valid.
			bitutil.SetBitsTo(o.ivalid, 0, int64(o.at)*int64(dim), true)
		}
	}
	stride := w + cw + vb
	base := p.buffers[0].off
	n := hi - lo
	if cw == 0 && vb == 0 {
		// Entries are bare values: read them into the output.
		if err := r.f.readAt(o.data[o.at*w:(o.at+n)*w], base+int64(lo)*int64(w), d.path); err != nil {
			return err
		}
		if o.valid != nil {
			bitutil.SetBitsTo(o.valid, int64(o.at), int64(n), true)
		}
		if o.sv != nil {
			bitutil.SetBitsTo(o.sv, int64(o.at), int64(n), true)
		}
		o.at += n
		return nil
	}
	c0 := pl.layers[0].codes()
	maxDef := c0
	if len(pl.layers) == 2 {
		maxDef += pl.layers[1].codes()
	}
	mask := uint16(1)<<pl.bitsDef - 1
	step := max(1, fullZipStep/stride)
	if need := min(step, n) * stride; need > cap(o.chunk) {
		if err := d.mem.charge(int64(need), d.path, "page buffer"); err != nil {
			return err
		}
		o.chunk = make([]byte, need)
	}
	for s := lo; s < hi; s += step {
		e := min(hi, s+step)
		buf := o.chunk[:(e-s)*stride]
		off := base + int64(s)*int64(stride)
		if err := r.f.readAt(buf, off, d.path); err != nil {
			return err
		}
		d.off = off
		row := o.at
		out := o.data[row*w : (row+e-s)*w]
		for i := 0; i < e-s; i++ {
			ent := buf[i*stride : (i+1)*stride]
			var x uint16
			if cw == 1 {
				x = uint16(ent[0])
			} else {
				x = binary.LittleEndian.Uint16(ent)
			}
			x &= mask // bits above the def level are the (absent) rep level: ignored, as the general decoder does
			if x == 0 && o.valid == nil && o.sv == nil {
				// the common case: valid, no nulls seen yet
			} else if err := o.applyDef(d, x, row+i, c0, maxDef, s+i); err != nil {
				return err
			}
			if vb > 0 {
				iv := ent[cw : cw+vb]
				bitutil.CopyBitmap(iv, 0, dim, o.ivalid, (row+i)*dim)
				o.inulls += dim - bitutil.CountSetBits(iv, 0, dim)
			}
			copy(out[i*w:(i+1)*w], ent[cw+vb:])
		}
		o.at += e - s
	}
	return nil
}
