// Package lancefetch cuts the round trips of a Lance read over package
// remote: it plans the byte ranges the read will need (the selected
// columns' metadata, column buffers and page buffers, as lance.File.Columns
// lists them) and fetches them with (*remote.File).Prefetch, in one wave
// of concurrent, coalesced requests, before the lance reader asks for them
// one page at a time. The reader then finds every page in the prefetched
// blocks: a one-column read costs Open's request (the tail: footer and
// metadata), one more when the column metadata lies before the tail, and
// one wave for the pages, however many pages the column has.
//
// Entry points: Prefetch (one data file), NewFS (a table directory: every
// data file lance.OpenTable opens through it is prefetched for the
// selected columns, and (*FS).PrefetchTable opens a table's data files
// ahead, concurrently).
//
// It sits outside package lance and reads only its public plan
// (File.Columns), so the lance file is parsed twice (once here, once by
// the reader; the footer and metadata come from the tail cache, so the
// second parse costs no request). A hook in lance (a reader that
// implements Prefetch(ctx, []remote.Extent) asked for the extents of a
// planned read) would avoid the second parse; see remote/doc.go.
//
// # Memory
//
// Prefetched bytes stay with the *remote.File until it is closed and are
// bounded per File by remote.WithMaxPrefetch (default 256 MiB). A plan
// larger than that is not prefetched (the reader then fetches pages as it
// goes), so Prefetch never holds more than that bound.
package lancefetch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/colfmt/colfmt/lance"
	"github.com/colfmt/colfmt/remote"
)

// Extents lists the byte ranges reading columns of lf needs beyond its
// footer: each selected column's metadata, column buffers and page
// buffers. columns are field names or dotted paths as lance.ReadOptions
// takes them (a name selects its nested fields too); nil selects all.
func Extents(lf *lance.File, columns []string) []remote.Extent {
	var es []remote.Extent
	for _, c := range lf.Columns() {
		if !selected(fieldPath(c.Path), columns) {
			continue
		}
		es = append(es, remote.Extent{Off: c.Metadata.Offset, Len: c.Metadata.Size})
		for _, r := range c.Buffers {
			es = append(es, remote.Extent{Off: r.Offset, Len: r.Size})
		}
		for _, p := range c.Pages {
			for _, r := range p.Buffers {
				es = append(es, remote.Extent{Off: r.Offset, Len: r.Size})
			}
		}
	}
	return es
}

// fieldPath is the field of "column 9 (a.b)": "a.b".
func fieldPath(p string) string {
	i := strings.Index(p, " (")
	if i < 0 || !strings.HasSuffix(p, ")") {
		return p
	}
	return p[i+2 : len(p)-1]
}

// selected reports whether field lies in one of the columns (or below
// one, or above one: a struct's own column holds its validity).
func selected(field string, columns []string) bool {
	if columns == nil {
		return true
	}
	for _, c := range columns {
		if field == c || strings.HasPrefix(field, c+".") || strings.HasPrefix(c, field+".") {
			return true
		}
	}
	return false
}

// Prefetch fetches, in one wave, what reading columns of lf (opened over
// f) needs. A plan over f's remote.WithMaxPrefetch bound is skipped
// (nil error: the read then fetches as it goes); other errors are the
// fetch's.
func Prefetch(ctx context.Context, f *remote.File, lf *lance.File, columns []string) error {
	err := f.Prefetch(ctx, Extents(lf, columns))
	if errors.Is(err, remote.ErrTooLarge) {
		return nil
	}
	return err
}

// Bounds of FS.PrefetchTable.
const (
	// MaxTableFiles is how many data files PrefetchTable opens ahead.
	MaxTableFiles = 64
	// MaxTableBytes bounds the page bytes PrefetchTable holds for the
	// files it opened ahead, all together.
	MaxTableBytes = 256 << 20
	// tableInFlight is how many data files it opens at once.
	tableInFlight = 8
)

// FS wraps a table directory's file system (remote.FS, objstore.FS): a
// Lance data file (a name ending in .lance) opened through it as a
// *remote.File is prefetched for columns (nil: all) before it is
// returned, and PrefetchTable opens a table's data files ahead, all at
// once. A file that does not parse as Lance, or whose prefetch fails, is
// returned as it is: the table reader then reports what is wrong, or
// fetches as it goes.
type FS struct {
	fs.FS
	ctx     context.Context
	columns []string

	mu    sync.Mutex
	ready map[string]*remote.File // opened and prefetched ahead, handed out once
}

// NewFS wraps fsys; ctx bounds the prefetches.
func NewFS(ctx context.Context, fsys fs.FS, columns []string) *FS {
	if ctx == nil {
		ctx = context.Background()
	}
	return &FS{FS: fsys, ctx: ctx, columns: columns}
}

// Open opens name: a file PrefetchTable made ready, else through the
// wrapped FS (prefetched when it is a remote Lance data file).
func (p *FS) Open(name string) (fs.File, error) {
	p.mu.Lock()
	f, ok := p.ready[name]
	delete(p.ready, name)
	p.mu.Unlock()
	if ok {
		return f, nil
	}
	return p.open(name)
}

func (p *FS) open(name string) (fs.File, error) {
	f, err := p.FS.Open(name)
	if err != nil || !strings.HasSuffix(name, ".lance") {
		return f, err
	}
	if rf, ok := f.(*remote.File); ok {
		if lf, err := lance.Open(rf, rf.Size()); err == nil {
			Prefetch(p.ctx, rf, lf, p.columns) // best effort, see FS
		}
	}
	return f, nil
}

// PrefetchTable opens the data files of t's fragments (t opened over p,
// at dir "." of it) ahead, at most tableInFlight at once, so that their
// tails and their column pages arrive in a few concurrent waves instead of
// two round trips per fragment, one fragment after another. Whether a data
// file holds a selected column depends only on its field ids: when the
// files hold different sets of fields and not all are selected, one file
// of each set is opened first, to learn it, then the other files that
// hold selected columns. It stops after MaxTableFiles files or
// MaxTableBytes of pages; the rest are opened as the reader reaches them.
// Errors are left for the reader to meet.
func (p *FS) PrefetchTable(t *lance.Table) {
	type file struct {
		name, key string
	}
	var files []file
	for _, fr := range t.Fragments() {
		for _, df := range fr.Files {
			files = append(files, file{df.Path, fmt.Sprint(df.FieldIDs)})
		}
	}
	var (
		mu       sync.Mutex
		relevant = map[string]bool{} // by field ids: holds a selected column
		opened   int
		total    atomic.Int64
	)
	// open opens the files concurrently; each is made ready when it
	// holds a selected column.
	open := func(names []file) {
		var wg sync.WaitGroup
		sem := make(chan struct{}, tableInFlight)
		for _, fl := range names {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				f, err := p.FS.Open(fl.name)
				if err != nil {
					return
				}
				rf, ok := f.(*remote.File)
				var es []remote.Extent
				if ok {
					if lf, err := lance.Open(rf, rf.Size()); err == nil {
						es = Extents(lf, p.columns)
					}
				}
				mu.Lock()
				relevant[fl.key] = len(es) > 0
				mu.Unlock()
				if len(es) == 0 {
					f.Close()
					return
				}
				var n int64
				for _, e := range es {
					n += e.Len
				}
				if total.Add(n) <= MaxTableBytes {
					rf.Prefetch(p.ctx, es)
				}
				p.mu.Lock()
				if p.ready == nil {
					p.ready = map[string]*remote.File{}
				}
				p.ready[fl.name] = rf
				p.mu.Unlock()
			}()
		}
		wg.Wait()
	}
	// One file of each field-id set, then the rest that matter.
	var first, rest []file
	seen := map[string]bool{}
	for _, fl := range files {
		if opened >= MaxTableFiles {
			break
		}
		if !seen[fl.key] {
			seen[fl.key] = true
			first = append(first, fl)
		} else {
			rest = append(rest, fl)
		}
		opened++
	}
	if p.columns == nil || len(first) == 1 {
		// Every file holds a selected column (all are selected, or all
		// hold the same fields, which some file must hold): one wave.
		open(append(first, rest...))
		return
	}
	open(first)
	var more []file
	for _, fl := range rest {
		if relevant[fl.key] {
			more = append(more, fl)
		}
	}
	open(more)
}

// Close closes the files made ready that the reader did not open.
func (p *FS) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, f := range p.ready {
		f.Close()
		delete(p.ready, name)
	}
	return nil
}

// ReadDir and Stat pass through (fs.ReadDir and fs.Stat would otherwise
// fall back to Open).
func (p *FS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(p.FS, name) }
func (p *FS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(p.FS, name) }
