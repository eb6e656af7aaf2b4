package lance

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// FuzzWriteRoundTrip turns the fuzz bytes into a schema (a subset of
// every type the writer stores), generator settings, batch sizes, a page
// size and a format version; writes the records; and reads them back.
func FuzzWriteRoundTrip(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 0x55, 0x33, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 10, 200})
	f.Add([]byte{9, 9, 9, 9, 9, 9, 9, 9, 0x01, 0x80, 0x01, 0x00, 0x00, 0x10, 0x00, 0x04, 3, 1})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0xf7, 0xc2, 0x00, 0x00, 0x00, 0x00, 0x80, 0x01, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 18 {
			return
		}
		seed := binary.LittleEndian.Uint64(data)
		knobs := data[8]
		version := []string{"2.2", "2.1", "2.0", "2.2"}[data[9]&3]
		mask := binary.LittleEndian.Uint64(data[10:])
		all := allTypesSchema()
		if version == "2.0" {
			all = schema20()
		}
		var fs []arrow.Field
		for i, fl := range all.Fields() {
			if mask&(1<<i) != 0 && !(version == "2.1" && fl.Name == "m") {
				fs = append(fs, fl)
			}
		}
		if len(fs) == 0 {
			return
		}
		schema := arrow.NewSchema(fs, nil)
		g := genOpts{
			pNull:        []float64{0, 0.1, 0.5, 1}[knobs&3],
			pEmpty:       []float64{0, 0.2, 0.6, 1}[knobs>>2&3],
			maxList:      int(knobs>>4&3) * 3,
			maxStr:       []int{0, 4, 40, 300}[knobs>>6],
			card:         int(data[9] >> 6),
			noStructNull: version == "2.0",
		}
		r := rand.New(rand.NewPCG(seed, 1))
		var recs []arrow.RecordBatch
		for _, n := range data[18:min(len(data), 22)] {
			recs = append(recs, randRecord(schema, int(n)*4, r, g))
		}
		if len(recs) == 0 {
			recs = append(recs, randRecord(schema, int(data[16]), r, g))
		}
		pageBytes := int64(1<<10) << (data[17] % 12)
		b := writeFile(t, schema, recs, WithFormatVersion(version), WithPageBytes(pageBytes))
		checkRoundTrip(t, b, schema, recs)
	})
}
