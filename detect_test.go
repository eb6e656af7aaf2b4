package colfmt_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/colfmt/colfmt"
	"github.com/colfmt/colfmt/csup/bsup"
	"github.com/colfmt/colfmt/internal/shareddata"
	"github.com/colfmt/colfmt/internal/testlimit"
	"github.com/colfmt/colfmt/onpair"
)

// notAFormat lists the files of ../shared/data that are not files of a
// format colfmt reads, so Detect must call them unknown: expected outputs,
// inputs and documentation in text form; Lance transaction files (a bare
// Transaction protobuf with no magic); Lance deletion vectors (Arrow IPC
// .arrow and roaring .bin files); and the plain-text inputs of the OnPair
// corpus (onpair/dbtext, from which OPCOL files are made).
func notAFormat(rel string) bool {
	switch filepath.Ext(rel) {
	case ".json", ".jsonl", ".zson", ".sup", ".jsup", ".md", ".txt", ".expected", ".txn":
		return true
	case ".arrow", ".bin":
		return strings.Contains(rel, "/_deletions/")
	}
	return strings.HasPrefix(rel, "onpair/dbtext/")
}

// truncatedOnPurpose lists the real files that are truncated by design.
var truncatedOnPurpose = map[string]bool{
	"hostile/at1_framed_payload_len_1GiB.at1": true, // declares a 1 GiB frame in 12 bytes
}

// expect returns the Info a file of the corpus must get, from its folder
// and name.
func expect(t *testing.T, rel string) colfmt.Info {
	base := filepath.Base(rel)
	switch {
	case strings.HasSuffix(rel, ".at1"):
		return colfmt.Info{Format: colfmt.AT1}
	case strings.HasPrefix(rel, "csup/zst-v2"), strings.HasPrefix(rel, "hostile/csup") && strings.HasSuffix(rel, ".zst"):
		return colfmt.Info{Format: colfmt.CSUP, Layout: colfmt.LayoutZST, Version: "2"}
	case strings.HasPrefix(rel, "csup/vng-v3"):
		return colfmt.Info{Format: colfmt.CSUP, Layout: colfmt.LayoutVNG, Version: "3"}
	case strings.HasPrefix(rel, "csup/vng-v4"):
		return colfmt.Info{Format: colfmt.CSUP, Layout: colfmt.LayoutVNG, Version: "4"}
	case strings.HasPrefix(rel, "csup/csup-v16"):
		return colfmt.Info{Format: colfmt.CSUP, Layout: colfmt.LayoutCSUP, Version: "16"}
	case strings.HasPrefix(rel, "hostile/csup") && strings.HasSuffix(rel, ".csup"):
		return colfmt.Info{Format: colfmt.CSUP, Layout: colfmt.LayoutSpec, Version: "1"}
	case strings.HasSuffix(rel, ".manifest"):
		v := "2.0"
		if strings.HasPrefix(rel, "lance21/") {
			v = strings.Split(rel, "/")[1] // lance21/2.1/... or lance21/2.2/...
		}
		return colfmt.Info{Format: colfmt.LanceManifest, Version: v}
	case strings.HasSuffix(rel, ".lance"):
		switch {
		case strings.HasPrefix(base, "v0_2_legacy"):
			return colfmt.Info{Format: colfmt.Lance, Layout: colfmt.LayoutLegacy, Version: "0.2"}
		case strings.HasPrefix(base, "v2_1"), strings.HasPrefix(rel, "lance21/2.1/"):
			return colfmt.Info{Format: colfmt.Lance, Layout: colfmt.LayoutV2, Version: "2.1"}
		case strings.HasPrefix(base, "v2_2"), strings.HasPrefix(rel, "lance21/2.2/"):
			return colfmt.Info{Format: colfmt.Lance, Layout: colfmt.LayoutV2, Version: "2.2"}
		default: // v2_0_*, lance-upstream v0_3_* (2.0 files carry footer 0.3), hostile
			return colfmt.Info{Format: colfmt.Lance, Layout: colfmt.LayoutV2, Version: "2.0"}
		}
	}
	t.Fatalf("%s: no expectation for this file: add it to expect or notAFormat", rel)
	return colfmt.Info{}
}

func detectFile(t *testing.T, path string) (colfmt.Info, error) {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return colfmt.Detect(bytes.NewReader(b), int64(len(b)))
}

func TestDetectEveryFileOfTheCorpus(t *testing.T) {
	root := shareddata.Path(t)
	seen := map[colfmt.Format]int{}
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		info, err := detectFile(t, path)
		if notAFormat(rel) {
			require.ErrorIs(t, err, colfmt.ErrUnknownFormat, "%s: got %v", rel, info)
			return nil
		}
		want := expect(t, rel)
		if truncatedOnPurpose[rel] {
			require.ErrorIs(t, err, colfmt.ErrTruncated, rel)
		} else {
			require.NoError(t, err, rel)
		}
		require.Equal(t, want.Format, info.Format, rel)
		if want.Format == colfmt.AT1 {
			// The container kind is in the header, the name says which.
			wantLayout := colfmt.LayoutWhole
			if strings.Contains(rel, "framed") || strings.HasPrefix(filepath.Base(rel), "stream_") {
				wantLayout = colfmt.LayoutFramed
			}
			require.Equal(t, wantLayout, info.Layout, rel)
			require.NotEmpty(t, info.Kind, rel)
			require.NotContains(t, info.Kind, "codec(", rel)
		} else {
			require.Equal(t, want, info, rel)
		}
		seen[info.Format]++
		return nil
	})
	require.NoError(t, err)
	for _, f := range []colfmt.Format{colfmt.AT1, colfmt.CSUP, colfmt.Lance, colfmt.LanceManifest} {
		require.NotZero(t, seen[f], "no %v file in the corpus", f)
	}
}

// cutsOf returns the prefixes of b to try: every length up to 80, then
// about 60 lengths spread over the rest.
func cutsOf(size int) []int {
	var cuts []int
	for n := 0; n < size; n++ {
		if n < 80 || n%max(1, size/60) == 0 || n > size-5 {
			cuts = append(cuts, n)
		}
	}
	return cuts
}

func TestDetectTruncatedFiles(t *testing.T) {
	root := shareddata.Path(t)
	// Formats whose header declares every size: any cut is ErrTruncated.
	files := []string{
		"at1/columnar_edge.at1", "at1/qcol.at1", "at1/qjson.at1", "at1/columnar_edge_zstd_streams.at1",
		"csup/csup-v16_super-v0.3.0/primitives.csup", "csup/vng-v4_zed-v1.18.0/nested.vng",
		// Lance 2.x files padded with 'H' after their first buffer.
		"lance/v2_0_alltypes_5rows.lance", "lance/v2_1_alltypes_5rows.lance", "lance/v2_2_alltypes_5rows.lance",
	}
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		full, err := colfmt.Detect(bytes.NewReader(b), int64(len(b)))
		require.NoError(t, err, rel)
		for _, n := range cutsOf(len(b)) {
			info, err := colfmt.Detect(bytes.NewReader(b[:n]), int64(n))
			if full.Format == colfmt.Lance && n <= 64 {
				// Too short to tell a Lance file from anything else.
				require.Error(t, err)
				continue
			}
			if n < 3 {
				require.ErrorIs(t, err, colfmt.ErrUnknownFormat, "%s cut to %d", rel, n)
				continue
			}
			require.ErrorIs(t, err, colfmt.ErrTruncated, "%s cut to %d bytes: %v", rel, n, info)
			require.Equal(t, full.Format, info.Format, "%s cut to %d", rel, n)
		}
	}
	// A framed AT-1 file cut inside its last frame.
	b, err := os.ReadFile(filepath.Join(root, "at1/stream_columnar.at1"))
	require.NoError(t, err)
	_, err = colfmt.Detect(bytes.NewReader(b[:len(b)-1]), int64(len(b)-1))
	require.ErrorIs(t, err, colfmt.ErrTruncated)

	// Lance files without the padding: a cut inside "LANC" is still seen.
	for _, rel := range []string{"lance-upstream/v0_3_lance0.15.0_int64_3rows.lance", "lance/v0_2_legacy_alltypes_5rows.lance"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		info, err := colfmt.Detect(bytes.NewReader(b[:len(b)-1]), int64(len(b)-1))
		require.ErrorIs(t, err, colfmt.ErrTruncated, rel)
		require.Equal(t, colfmt.Lance, info.Format)
	}

	// Trailer-only layouts cannot be recognised without their end, but a
	// cut never yields a wrong success.
	for _, rel := range []string{"csup/zst-v2_zed-v1.2.0/nested.zst", "csup/vng-v3_zed-v1.6.0/nested.vng", "lance/v2_0_alltypes_5rows.manifest"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		require.NoError(t, err)
		for _, n := range cutsOf(len(b)) {
			info, err := colfmt.Detect(bytes.NewReader(b[:n]), int64(n))
			require.Error(t, err, "%s cut to %d: %v", rel, n, info)
		}
	}
}

func TestDetectOnPair(t *testing.T) {
	c, err := onpair.CompressStrings([]string{"alpha", "beta", "gamma", "alphabet", "betamax"})
	require.NoError(t, err)
	b, err := c.MarshalBinary()
	require.NoError(t, err)
	info, err := colfmt.Detect(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.Equal(t, colfmt.Info{Format: colfmt.OnPair, Version: strconv.Itoa(onpair.FormatVersion)}, info)
	for n := 3; n < len(b); n++ {
		info, err := colfmt.Detect(bytes.NewReader(b[:n]), int64(n))
		require.ErrorIs(t, err, colfmt.ErrTruncated, "cut to %d", n)
		require.Equal(t, colfmt.OnPair, info.Format)
	}
}

func TestDetectSuperBinary(t *testing.T) {
	var buf bytes.Buffer
	w, err := bsup.NewWriter(&buf)
	require.NoError(t, err)
	rt := bsup.NewRecord([]bsup.Field{{Name: "a", Type: bsup.TypeString}, {Name: "n", Type: bsup.TypeInt64}})
	for i := range 50 {
		rec := bsup.NewRecordValue(rt, bsup.NewString(strings.Repeat("x", i)), bsup.NewInt(bsup.TypeInt64, int64(i)))
		require.NoError(t, w.Write(rec))
		if i%10 == 9 {
			require.NoError(t, w.Flush())
		}
	}
	require.NoError(t, w.Close())
	b := buf.Bytes()
	info, err := colfmt.Detect(bytes.NewReader(b), int64(len(b)))
	require.NoError(t, err)
	require.Equal(t, colfmt.Info{Format: colfmt.SuperBinary, Version: "0"}, info)
	// The same frames in version 2 framing: 0x82 before each.
	var v2 []byte
	for off := 0; off < len(b); {
		if b[off] == 0xff {
			v2 = append(v2, 0xff)
			off++
			continue
		}
		hi, n := binary.Uvarint(b[off+1:])
		l := int(hi<<4 | uint64(b[off]&0x0f))
		v2 = append(v2, 0x82)
		v2 = append(v2, b[off:off+1+n+l]...)
		off += 1 + n + l
	}
	info, err = colfmt.Detect(bytes.NewReader(v2), int64(len(v2)))
	require.NoError(t, err)
	require.Equal(t, colfmt.Info{Format: colfmt.SuperBinary, Version: "2"}, info)
	require.Equal(t, "Super Binary version 2 stream", info.String())
	// A cut is never taken for a whole stream; once two frames are whole,
	// it is a truncated one.
	for n := 1; n < len(b); n++ {
		info, err := colfmt.Detect(bytes.NewReader(b[:n]), int64(n))
		require.Error(t, err, "cut to %d", n)
		if info.Format != colfmt.Unknown {
			require.Equal(t, colfmt.SuperBinary, info.Format)
			require.ErrorIs(t, err, colfmt.ErrTruncated)
		}
	}
}

func TestDetectRejectsText(t *testing.T) {
	for _, s := range []string{"", "x", "hello, world\n", strings.Repeat("A line of text.\n", 500), "[1,2,3]\n", "AT", "OP"} {
		_, err := colfmt.Detect(strings.NewReader(s), int64(len(s)))
		require.ErrorIs(t, err, colfmt.ErrUnknownFormat, "%q", s)
	}
}

type failingReader struct{}

func (failingReader) ReadAt([]byte, int64) (int, error) { return 0, errors.New("disk on fire") }

func TestDetectInvalidArgument(t *testing.T) {
	_, err := colfmt.Detect(nil, 10)
	require.ErrorIs(t, err, colfmt.ErrInvalidArgument)
	_, err = colfmt.Detect(strings.NewReader("AT1"), -1)
	require.ErrorIs(t, err, colfmt.ErrInvalidArgument)
	_, err = colfmt.Detect(failingReader{}, 100)
	require.ErrorContains(t, err, "disk on fire")
	// A size larger than the reader's bytes is the caller's promise broken.
	_, err = colfmt.Detect(strings.NewReader("AT1\x02\x04"), 100)
	require.Error(t, err)
	_, err = colfmt.DetectDir(nil, ".")
	require.ErrorIs(t, err, colfmt.ErrInvalidArgument)
	_, err = colfmt.DetectDir(fstest.MapFS{}, "../x")
	require.ErrorIs(t, err, colfmt.ErrInvalidArgument)
}

func TestDetectDir(t *testing.T) {
	root := shareddata.Path(t, "lance21")
	info, err := colfmt.DetectDir(os.DirFS(root), "2.1/versions.lance")
	require.NoError(t, err)
	// Versions 1..7 in V2 naming: the latest is MaxUint64-7.
	_, err = os.Stat(filepath.Join(root, "2.1/versions.lance/_versions/18446744073709551608.manifest"))
	require.NoError(t, err)
	require.Equal(t, colfmt.Info{Format: colfmt.LanceTable, Version: "2.1", TableVersion: 7}, info)
	require.Equal(t, "Lance table directory, version 7 (data storage version 2.1)", info.String())

	_, err = colfmt.DetectDir(os.DirFS(root), "2.1")
	require.ErrorIs(t, err, colfmt.ErrUnknownFormat)

	manifest, err := os.ReadFile(shareddata.Path(t, "lance", "v2_0_alltypes_5rows.manifest"))
	require.NoError(t, err)
	mfs := fstest.MapFS{
		"t/_versions/1.manifest":       {Data: manifest},
		"t/_versions/12.manifest":      {Data: manifest},
		"t/_versions/d99.manifest":     {Data: []byte("detached")},
		"t/_versions/.tmp_3.manifest_": {Data: []byte("temp")},
		"empty/_versions/README":       {Data: []byte("x")},
		"bad/_versions/2.manifest":     {Data: []byte("not a manifest")},
	}
	info, err = colfmt.DetectDir(mfs, "t")
	require.NoError(t, err)
	require.Equal(t, colfmt.Info{Format: colfmt.LanceTable, Version: "2.0", TableVersion: 12}, info)
	_, err = colfmt.DetectDir(mfs, "empty")
	require.ErrorIs(t, err, colfmt.ErrUnknownFormat)
	_, err = colfmt.DetectDir(mfs, "bad")
	require.ErrorContains(t, err, "bad/_versions/2.manifest")
}

// TestDetectImportsNoFormatPackage keeps detection cheap: the root package
// must not pull in the format packages (and their dependencies' inits).
func TestDetectImportsNoFormatPackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		pf, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range pf.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, ".") { // not the standard library
				require.Contains(t, []string{"github.com/colfmt/colfmt/internal/errs", "github.com/colfmt/colfmt/internal/varint"}, p, "%s imports %s", f, p)
			}
		}
	}
}

// TestDetectAllocatesLittle: whatever sizes a file declares, Detect reads
// and allocates only its fixed windows.
func TestDetectAllocatesLittle(t *testing.T) {
	dir := shareddata.Path(t, "hostile")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		testlimit.AtMost(t, 64<<10, func() { // reads of 4 KiB + 64 B, plus runtime noise
			_, _ = colfmt.Detect(bytes.NewReader(b), int64(len(b)))
		}, "Detect(%s)", e.Name())
	}
}

// FuzzDetect: any bytes give an answer without a panic, within the fixed
// read windows; a success names a format, a truncation names it too.
func FuzzDetect(f *testing.F) {
	for _, s := range []string{"AT1\x02\x04\x01\x05name\x00\x02ab", "AT1\x03\xff\x01\x05\x01abcd", "OPCOL\x01\x0c\x00\x00",
		"CSUP\x10\x00\x00\x00", "VNG\x00\x04\x00\x00\x00", "\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00LANC",
		"\x02\x0cZNG Trailer\x04zst\x02\x04\xff", "\x04\x02abc\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := colfmt.Detect(bytes.NewReader(b), int64(len(b)))
		switch {
		case err == nil:
			require.NotEqual(t, colfmt.Unknown, info.Format)
		case errors.Is(err, colfmt.ErrCorrupt): // truncated, or a malformed header
			require.NotEqual(t, colfmt.Unknown, info.Format)
		default:
			require.ErrorIs(t, err, colfmt.ErrUnknownFormat)
			require.Equal(t, colfmt.Info{}, info)
		}
		_ = info.String()
	})
}

type countingReader struct {
	r     *bytes.Reader
	reads int
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	c.reads++
	return c.r.ReadAt(p, off)
}

// TestDetectReadsFewRanges: a stream of end-of-stream bytes, or of tiny
// frames, costs at most the fixed windows plus 64 small reads.
func TestDetectReadsFewRanges(t *testing.T) {
	frame := []byte{0x12, 0x00, 'a', 'b'} // values frame of 2 bytes
	for _, b := range [][]byte{
		append(bytes.Clone(frame), bytes.Repeat([]byte{0xff}, 1<<20)...),
		append(bytes.Repeat(frame, 1<<18), 0xff),
		append([]byte("AT1\x03\x04\x01"), bytes.Repeat([]byte{0x02, 0x00, 'x'}, 1<<18)...),
	} {
		c := &countingReader{r: bytes.NewReader(b)}
		_, _ = colfmt.Detect(c, int64(len(b)))
		require.LessOrEqual(t, c.reads, 2+64+2)
	}
}

func TestInfoString(t *testing.T) {
	for want, info := range map[string]colfmt.Info{
		"Lance 2.1 file":                            {Format: colfmt.Lance, Layout: colfmt.LayoutV2, Version: "2.1"},
		"Lance file":                                {Format: colfmt.Lance},
		"Lance legacy v1 file (footer 0.2)":         {Format: colfmt.Lance, Layout: colfmt.LayoutLegacy, Version: "0.2"},
		"Super Columnar VNG version 3":              {Format: colfmt.CSUP, Layout: colfmt.LayoutVNG, Version: "3"},
		"Super Columnar spec layout version 1":      {Format: colfmt.CSUP, Layout: colfmt.LayoutSpec, Version: "1"},
		"Super Columnar file":                       {Format: colfmt.CSUP},
		"AT-1 framed container, codec qjson":        {Format: colfmt.AT1, Layout: colfmt.LayoutFramed, Kind: "qjson"},
		"AT-1 container":                            {Format: colfmt.AT1},
		"OnPair column (OPCOL framing v1)":          {Format: colfmt.OnPair, Version: "1"},
		"Super Binary version 0 stream":             {Format: colfmt.SuperBinary, Version: "0"},
		"Lance manifest (data storage version 2.0)": {Format: colfmt.LanceManifest, Version: "2.0"},
		"unknown": {},
	} {
		require.Equal(t, want, info.String())
	}
	require.Equal(t, "lance-table", colfmt.LanceTable.String())
	require.Equal(t, "Format(99)", colfmt.Format(99).String())
}

// TestDetectDirEveryTableOfTheCorpus: every directory of ../shared/data
// holding _versions is a Lance table of its folder's data storage version,
// at the highest version its manifests name; no other directory is one.
func TestDetectDirEveryTableOfTheCorpus(t *testing.T) {
	root := shareddata.Path(t)
	fsys := os.DirFS(root)
	tables := 0
	err := fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return err
		}
		info, derr := colfmt.DetectDir(fsys, p)
		if _, serr := fs.Stat(fsys, path.Join(p, "_versions")); serr != nil {
			require.ErrorIs(t, derr, colfmt.ErrUnknownFormat, p)
			return nil
		}
		require.NoError(t, derr, p)
		want := strings.Split(p, "/")[1] // lance21/2.1/x.lance
		require.Equal(t, colfmt.LanceTable, info.Format, p)
		require.Equal(t, want, info.Version, p)
		names, err := fs.Glob(fsys, path.Join(p, "_versions", "*.manifest"))
		require.NoError(t, err)
		require.Equal(t, uint64(len(names)), info.TableVersion, "%s: versions 1..n, all kept", p)
		tables++
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, tables, 12)
}
