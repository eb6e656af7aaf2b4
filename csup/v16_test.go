package csup_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

// Every CSUP v16 file super v0.3.0 wrote reads back exactly super's own
// JSON output (compared as parsed JSON), counts its rows and validates.
func TestCSUPv16RealFiles(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	files, err := filepath.Glob(filepath.Join(dir, "*.csup"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 10)
	for _, p := range files {
		name := strings.TrimSuffix(filepath.Base(p), ".csup")
		t.Run(name, func(t *testing.T) {
			f := openFile(t, p)
			require.Equal(t, csup.GenCSUPv16, f.Generation)
			want, err := os.ReadFile(filepath.Join(dir, name+".expected.json"))
			require.NoError(t, err)
			got := catJSON(t, f, bsup.JSONSuper)
			require.Equal(t, parseJSONLines(t, want), parseJSONLines(t, got), "got:\n%s", got)
			n, err := f.Count()
			require.NoError(t, err)
			require.Equal(t, int64(len(parseJSONLines(t, want))), n)
			require.NoError(t, f.Validate())
		})
	}
}

// The types rebuilt from the node DAG match super's own read-back
// (.expected.sup): names, enums, unions, float32, uint8, sets and maps.
func TestCSUPv16Types(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	for name, want := range map[string][]string{
		"named_enum": {"{p:point={x:int64,y:int64},c:enum(red,green,blue)}"},
		"unions":     {"{u:(int64,string)}", "{u:(int64,string,null)}"},
		"primitives": {"{s:string,i:int64,u:uint8,f:float64,b:bool,t:time,d:duration,ip:ip,net:net,by:bytes,neg:int32,f32:float32}"},
		"maps":       {"{m:|{string:int64}|}"},
		"arrays":     {"{xs:[int64],ys:[[int64]],recs:[{k:string,v:int64}],set:|[string]|}"},
		"hello":      {"{a:string,b:string}"},
	} {
		f := openFile(t, filepath.Join(dir, name+".csup"))
		var got []string
		for _, st := range f.SuperTypes() {
			got = append(got, st.Key())
		}
		require.Equal(t, want, got, name)
	}
}
