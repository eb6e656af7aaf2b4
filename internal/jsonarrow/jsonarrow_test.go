package jsonarrow

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"
)

const sample = `{"id": 1, "name": "a", "score": 1, "ok": true, "tags": ["x"], "vec": [1.5, 2, 3], "info": {"city": "P", "n": 1}, "mixed": 1, "nul": null}
{"id": 2, "name": null, "score": 2.5, "ok": false, "tags": [], "vec": [0, 0, 0.25], "info": {"n": 2, "zip": "75"}, "mixed": "two"}

{"id": 3, "score": null, "tags": null, "vec": null, "info": null, "mixed": {"k": [1]}, "ints": [1, 2]}
{"id": 4, "name": "d\u00e9", "ok": null, "tags": ["y", null, "z"], "vec": [1, 2, 3], "ints": [3, 4], "deep": [[1], [2, 3]]}
`

func TestInferSchema(t *testing.T) {
	s, rows, err := InferSchema(strings.NewReader(sample), Options{})
	require.NoError(t, err)
	require.EqualValues(t, 4, rows)
	want := []struct {
		name string
		dt   string
	}{
		{"id", "int64"},
		{"name", "utf8"},
		{"score", "float64"},
		{"ok", "bool"},
		{"tags", "list<item: utf8, nullable>"},
		{"vec", "fixed_size_list<item: float32, nullable>[3]"},
		{"info", "struct<city: utf8 nullable, n: int64 nullable, zip: utf8 nullable>"},
		{"mixed", "utf8"},
		{"nul", "utf8"},
		{"ints", "fixed_size_list<item: int64, nullable>[2]"},
		{"deep", "list<item: list<item: int64, nullable>, nullable>"},
	}
	require.Equal(t, len(want), s.NumFields(), s.String())
	for i, w := range want {
		require.Equal(t, w.name, s.Field(i).Name)
		require.Equal(t, w.dt, s.Field(i).Type.String(), w.name)
		require.True(t, s.Field(i).Nullable)
	}

	var got []string
	for rec, err := range Records(strings.NewReader(sample), s, Options{BatchRows: 3}) {
		require.NoError(t, err)
		b, err := rec.MarshalJSON()
		require.NoError(t, err)
		got = append(got, string(b))
	}
	require.Len(t, got, 2) // 3 + 1 rows
	all := strings.Join(got, "")
	for _, frag := range []string{
		`"id":1`, `"name":"a"`, `"vec":[1.5,2,3]`, `"mixed":"1"`, `"mixed":"two"`, `"mixed":"{\"k\": [1]}"`,
		`"info":{"city":"P","n":1,"zip":null}`, `"info":null`, `"tags":["y",null,"z"]`, `"name":"dé"`,
		`"deep":[[1],[2,3]]`, `"ints":[3,4]`, `"score":2.5`,
	} {
		require.Contains(t, all, frag)
	}
}

func TestInferVectorRules(t *testing.T) {
	// Lengths differ: a list; too short: a list; disabled: a list.
	in := "{\"a\":[1,2],\"b\":[1],\"c\":[0.5,1]}\n{\"a\":[1,2,3],\"b\":[2],\"c\":[1,1]}\n"
	s, _, err := InferSchema(strings.NewReader(in), Options{})
	require.NoError(t, err)
	require.Equal(t, "list<item: int64, nullable>", s.Field(0).Type.String())
	require.Equal(t, "list<item: int64, nullable>", s.Field(1).Type.String())
	require.Equal(t, "fixed_size_list<item: float32, nullable>[2]", s.Field(2).Type.String())
	s, _, err = InferSchema(strings.NewReader(in), Options{VectorMinLen: -1})
	require.NoError(t, err)
	require.Equal(t, "list<item: float64, nullable>", s.Field(2).Type.String())
	s, _, err = InferSchema(strings.NewReader(in), Options{Float64Vectors: true})
	require.NoError(t, err)
	require.Equal(t, "fixed_size_list<item: float64, nullable>[2]", s.Field(2).Type.String())
}

func TestBadInput(t *testing.T) {
	for _, in := range []string{
		"{\"a\":1}\n{\"a\":}\n",
		"[1,2]\n",
		"{\"a\":1} x\n",
		"{\"a\":01}\n",
		"{\"a\":\"\xff\"}\n",
		"{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}\n",
		"{\"a\":\"x\n",
	} {
		_, _, err := InferSchema(strings.NewReader(in), Options{})
		require.ErrorIs(t, err, ErrInput, "%q", in)
	}
	_, _, err := InferSchema(strings.NewReader(strings.Repeat("x", 100)), Options{MaxLineBytes: 10})
	require.ErrorIs(t, err, ErrInput)
}

func TestRecordsWithSchema(t *testing.T) {
	s, err := ParseSchema([]byte(`{"fields":[
		{"name":"id","type":"int32","nullable":false},
		{"name":"u","type":{"name":"int","bitWidth":8,"isSigned":false}},
		{"name":"f","type":{"name":"floatingpoint","precision":"HALF"}},
		{"name":"vec","type":"fixed_size_list:2","item":"float32"},
		{"name":"l","type":"large_list","children":[{"name":"element","type":"string","nullable":false}]},
		{"name":"st","type":"struct","children":[{"name":"a","type":"bool"},{"name":"d","type":"date32"}]},
		{"name":"ts","type":"timestamp[ms, UTC]"},
		{"name":"b","type":"binary"}
	]}`))
	require.NoError(t, err)
	require.Equal(t, "fixed_size_list<item: float32, nullable>[2]", s.Field(3).Type.String())
	require.False(t, s.Field(0).Nullable)
	require.Equal(t, "timestamp[ms, tz=UTC]", s.Field(6).Type.String())

	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	in := `{"id":1,"u":255,"f":0.5,"vec":[1,2],"l":["a"],"st":{"a":true,"d":"2024-02-29"},"ts":"2024-01-02T03:04:05.006Z","b":"hi","extra":1}
{"id":2.0,"vec":null,"st":null,"ts":5}
`
	n := 0
	for rec, err := range Records(strings.NewReader(in), s, Options{Allocator: mem}) {
		require.NoError(t, err)
		n += int(rec.NumRows())
		require.Equal(t, []int32{1, 2}, rec.Column(0).(*array.Int32).Int32Values())
		require.Equal(t, uint8(255), rec.Column(1).(*array.Uint8).Value(0))
		require.True(t, rec.Column(3).IsNull(1))
		require.Equal(t, "2024-02-29", rec.Column(5).(*array.Struct).Field(1).(*array.Date32).Value(0).FormattedString())
		require.Equal(t, arrow.Timestamp(1704164645006), rec.Column(6).(*array.Timestamp).Value(0))
		require.Equal(t, arrow.Timestamp(5), rec.Column(6).(*array.Timestamp).Value(1))
		require.Equal(t, "hi", string(rec.Column(7).(*array.Binary).Value(0)))
	}
	require.Equal(t, 2, n)

	for _, c := range []struct{ in, msg string }{
		{`{"u":1}`, `"id" is missing and not nullable`},
		{`{"id":null}`, `"id": null in a non-nullable`},
		{`{"id":1,"u":256}`, `out of range`},
		{`{"id":1.5}`, `where the schema wants an integer`},
		{`{"id":1,"vec":[1,2,3]}`, `array of 3 items where the schema wants 2`},
		{`{"id":1,"l":[null]}`, `"l[]": null in a non-nullable`},
		{`{"id":1,"st":{"d":"yesterday"}}`, `"st.d"`},
		{`{"id":1,"f":"x"}`, `wants a number`},
	} {
		var got error
		for _, err := range Records(strings.NewReader(c.in), s, Options{Allocator: mem}) {
			if err != nil {
				got = err
			}
		}
		require.ErrorIs(t, got, ErrInput, c.in)
		require.Contains(t, got.Error(), c.msg)
		require.Contains(t, got.Error(), "line 1")
	}
}

func TestParseSchemaBad(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"fields":[{"name":"a"}]}`, `{"fields":[{"name":"a","type":"decimal"}]}`,
		`[{"name":"a","type":"list"}]`, `[{"name":"a","type":"int8"},{"name":"a","type":"int8"}]`,
		`[{"name":"","type":"int8"}]`, `[{"name":"a","type":"struct"}]`, `[{"name":"a","type":"fixed_size_list:0","item":"int8"}]`,
		`[{"name":"a","type":{"name":"int","bitWidth":7}}]`, `nope`,
	} {
		_, err := ParseSchema([]byte(in))
		require.Error(t, err, in)
	}
}

func TestBatchBytes(t *testing.T) {
	var sb strings.Builder
	for i := 0; i < 100; i++ {
		sb.WriteString(`{"s":"` + strings.Repeat("x", 100) + `"}` + "\n")
	}
	s, _, err := InferSchema(strings.NewReader(sb.String()), Options{})
	require.NoError(t, err)
	batches := 0
	for rec, err := range Records(strings.NewReader(sb.String()), s, Options{BatchBytes: 1000}) {
		require.NoError(t, err)
		require.LessOrEqual(t, rec.NumRows(), int64(10))
		batches++
	}
	require.Equal(t, 10, batches)
	// Stopping early releases and returns.
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	for range Records(strings.NewReader(sb.String()), s, Options{BatchRows: 1, Allocator: mem}) {
		break
	}
	mem.AssertSize(t, 0)
}

func FuzzInferRecords(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("{\"a\":[1,2]}\n{\"a\":[3,4.5]}"))
	f.Add([]byte("{\"a\":{\"b\":[{\"c\":null}]}}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, rows, err := InferSchema(strings.NewReader(string(b)), Options{MaxDepth: 16})
		if err != nil {
			return
		}
		var n int64
		for rec, err := range Records(strings.NewReader(string(b)), s, Options{MaxDepth: 16, BatchRows: 7}) {
			if err != nil {
				t.Fatalf("inferred schema %s does not read back: %v", s, err)
			}
			n += rec.NumRows()
		}
		if n != rows {
			t.Fatalf("%d rows inferred, %d read", rows, n)
		}
	})
}
