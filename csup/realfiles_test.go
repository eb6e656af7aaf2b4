package csup_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/colfmt/colfmt/csup"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/stretchr/testify/require"
)

func openFile(t testing.TB, path string, opts ...csup.Option) *csup.File {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := csup.Open(bytes.NewReader(b), int64(len(b)), opts...)
	require.NoError(t, err, path)
	return f
}

func parseJSONLines(t testing.TB, b []byte) []any {
	t.Helper()
	var out []any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		var v any
		require.NoError(t, d.Decode(&v), sc.Text())
		out = append(out, v)
	}
	return out
}

func catJSON(t testing.TB, f *csup.File, style bsup.JSONStyle) []byte {
	t.Helper()
	var buf []byte
	for v, err := range f.Values() {
		require.NoError(t, err)
		buf = bsup.AppendJSON(buf, v, style)
		buf = append(buf, '\n')
	}
	return buf
}

// Every real file reads back exactly its tool's own JSON output, compared as
// parsed JSON values, and validates.
func TestRealFiles(t *testing.T) {
	for dir, gen := range map[string]csup.Generation{
		"zst-v2_zed-v1.2.0": csup.GenZSTv2,
		"vng-v3_zed-v1.6.0": csup.GenVNGv3,
	} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.expected.json"))
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(files), 11, dir)
		for _, exp := range files {
			name := strings.TrimSuffix(filepath.Base(exp), ".expected.json")
			t.Run(dir+"/"+name, func(t *testing.T) {
				ext := ".zst"
				if gen == csup.GenVNGv3 {
					ext = ".vng"
				}
				f := openFile(t, filepath.Join("testdata", dir, name+ext))
				require.Equal(t, gen, f.Generation)
				want, err := os.ReadFile(exp)
				require.NoError(t, err)
				got := catJSON(t, f, bsup.JSONZed)
				require.Equal(t, parseJSONLines(t, want), parseJSONLines(t, got), "got:\n%s", got)
				n, err := f.Count()
				require.NoError(t, err)
				require.Equal(t, int64(len(parseJSONLines(t, want))), n)
				require.NoError(t, f.Validate())
			})
		}
	}
}

// Generations without a reader are refused, naming their version: VNG
// 5–12 (super pre-releases) and CSUP other than 16 (patched real headers).
func TestRefusedGenerations(t *testing.T) {
	for name, c := range map[string]struct {
		file string
		ver  byte
		want string
	}{
		"vng5":   {filepath.Join(shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0"), "hello.vng"), 5, "VNG version 5"},
		"vng12":  {filepath.Join(shareddata.Path(t, "csup", "vng-v4_zed-v1.18.0"), "hello.vng"), 12, "VNG version 12"},
		"csup14": {filepath.Join("testdata", "csup-v16_super-v0.3.0", "hello.csup"), 14, "CSUP version 14"},
		"csup23": {filepath.Join("testdata", "csup-v16_super-v0.3.0", "hello.csup"), 23, "CSUP version 23"},
	} {
		b, err := os.ReadFile(c.file)
		require.NoError(t, err)
		b[4] = c.ver
		_, err = csup.Open(bytes.NewReader(b), int64(len(b)))
		require.Error(t, err, name)
		require.True(t, errors.Is(err, csup.ErrUnsupported), "%s: %v", name, err)
		require.Contains(t, err.Error(), c.want, name)
	}
}

// The types rebuilt from each generation's metadata match the tools' own
// read-back (.expected.zson): names, enums, unions and typed nulls survive.
func TestRealFileTypes(t *testing.T) {
	for _, dir := range []string{"zst-v2_zed-v1.2.0/", "vng-v3_zed-v1.6.0/"} {
		ext := map[bool]string{true: ".zst", false: ".vng"}[strings.HasPrefix(dir, "zst")]
		for name, want := range map[string]string{
			"named_enum": "{p:point={x:int64,y:int64},c:enum(red,green,blue)}",
			"unions":     "{u:(int64,string)}",
			"primitives": "{s:string,i:int64,u:uint8,f:float64,b:bool,t:time,d:duration,ip:ip,net:net,by:bytes,neg:int32,f32:float32}",
			"maps":       "{m:|{string:int64}|}",
			"arrays":     "{xs:[int64],ys:[[int64]],recs:[{k:string,v:int64}],set:|[string]|}",
		} {
			f := openFile(t, "testdata/"+dir+name+ext)
			require.Len(t, f.SuperTypes(), 1)
			require.Equal(t, want, f.SuperTypes()[0].Key(), dir+name)
		}
		f := openFile(t, "testdata/"+dir+"nested"+ext)
		var got []string
		for v, err := range f.Values() {
			require.NoError(t, err)
			user, _ := v.Field("user")
			tags, _ := v.Field("tags")
			got = append(got, user.Type.String()+"/"+tags.Type.String()+"/"+map[bool]string{true: "null", false: "set"}[user.Null])
		}
		require.Equal(t, []string{
			"{name:string,addr:{city:string,zip:int64}}/[string]/set",
			"{name:string,addr:{city:string,zip:int64}}/[string]/set",
			"{name:string,addr:{city:string,zip:int64}}/[string]/null",
			"{name:string,addr:{city:string,zip:int64}}/[string]/set",
		}, got, dir)
	}
}

// With bsup.JSONSuper the same values print as super v0.3.0 prints them
// (maps as objects): compared with its .expected.json for the cases whose
// inputs are the same for both tools.
func TestSuperJSONStyle(t *testing.T) {
	dir := shareddata.Path(t, "csup", "csup-v16_super-v0.3.0")
	for _, name := range []string{"hello", "primitives", "arrays", "hetero", "maps", "named_enum", "mixed"} {
		f := openFile(t, filepath.Join("testdata", "zst-v2_zed-v1.2.0", name+".zst"))
		want, err := os.ReadFile(filepath.Join(dir, name+".expected.json"))
		require.NoError(t, err)
		require.Equal(t, parseJSONLines(t, want), parseJSONLines(t, catJSON(t, f, bsup.JSONSuper)), name)
	}
}
