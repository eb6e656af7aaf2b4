package onpair

import (
	"bytes"
	"math/rand/v2"
	"slices"
)

// train builds a dictionary from the rows data[offsets[r]:offsets[r+1]] as
// the reference does (notes §7): start from the 256 single bytes; scan rows
// in a seeded random order, parsing each greedily with the growing
// dictionary; count adjacent token pairs within a row (u8, saturating);
// when a pair's count reaches the threshold, add the concatenation (at most
// 16 bytes) as a token, which then chains with the next token; stop when
// 2^bits tokens exist or the sample budget of bytes is scanned. The pair
// threshold starts at 2 and a controller adapts it to the budget unless
// fixed by WithPairThreshold. Tokens are returned sorted bytewise.
func train(data []byte, offsets []uint32, cfg *config) [][]byte {
	capacity := 1 << cfg.bits
	m := newMatcher(capacity)
	for b := 0; b < 256; b++ {
		m.insert([]byte{byte(b)})
	}
	rows := len(offsets) - 1
	total := int(offsets[rows] - offsets[0])
	budget := int(float64(total) * cfg.sampleFraction)

	order := make([]int32, rows)
	for i := range order {
		order[i] = int32(i)
	}
	rng := rand.New(rand.NewPCG(cfg.seed, 0x6f6e70616972)) // "onpair"
	rng.Shuffle(rows, func(i, j int) { order[i], order[j] = order[j], order[i] })

	threshold := 2
	if cfg.pairThreshold != 0 {
		threshold = cfg.pairThreshold
	}
	checkEvery := max(capacity/128, 64)
	counts := newPairCounts()
	scanned, lastScanned, sinceCheck := 0, 0, 0
	var merged [MaxTokenSize]byte

	for _, r := range order {
		if scanned >= budget || m.size() >= capacity {
			break
		}
		start, end := int(offsets[r]), int(offsets[r+1])
		prev, prevLen := -1, 0
		for pos := start; pos < end; {
			id, l := m.match(data, pos, end)
			pos += l
			if prev < 0 || prevLen+l > MaxTokenSize {
				prev, prevLen = int(id), l
				continue
			}
			key := uint32(prev)<<16 | uint32(id)
			if int(counts.incr(key)) < threshold {
				prev, prevLen = int(id), l
				continue
			}
			counts.reset(key)
			copy(merged[:], m.token(uint16(prev)))
			copy(merged[prevLen:], m.token(id))
			tok := merged[:prevLen+l]
			nid, ok := m.lookup(tok)
			if !ok {
				nid = m.insert(tok)
				sinceCheck++
			}
			prev, prevLen = int(nid), prevLen+l
			if m.size() >= capacity {
				break
			}
			if cfg.pairThreshold == 0 && sinceCheck >= checkEvery {
				now := scanned + (pos - start)
				recent := float64(sinceCheck) / float64(max(now-lastScanned, 1))
				remainingBytes := budget - now
				ratio := 0.0
				if remainingBytes > 0 {
					target := float64(capacity-m.size()) / float64(remainingBytes)
					ratio = recent / target
				}
				switch {
				case ratio > 2 && threshold < 255:
					threshold++
				case ratio < 0.5 && threshold > 2:
					threshold--
				}
				sinceCheck, lastScanned = 0, now
			}
		}
		scanned += end - start
	}

	toks := make([][]byte, m.size())
	for i := range toks {
		toks[i] = m.token(uint16(i))
	}
	slices.SortFunc(toks, bytes.Compare)
	return toks
}
