package lance

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

func TestZZDump(t *testing.T) {
	schema := allTypesSchema()
	r := rand.New(rand.NewPCG(1, 2))
	g := genOpts{pNull: 0.2, pEmpty: 0.2, maxList: 4, maxStr: 12}
	b := writeFile(t, schema, []arrow.RecordBatch{randRecord(schema, 3000, r, g)})
	os.WriteFile("/tmp/lw_all.lance", b, 0o644)
}
