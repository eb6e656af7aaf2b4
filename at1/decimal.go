package at1

// Exact comparison of decimal text ("-12.50", "7", "0.") for query
// predicates: no float rounding, any number of digits.

// decimal is a parsed decimal: sign and the digits around the point,
// without leading zeros in intPart or trailing zeros in frac.
type decimal struct {
	neg     bool
	intPart []byte
	frac    []byte
}

// parseDecimal parses -?[0-9]*(\.[0-9]*)? with at least one digit.
func parseDecimal(s []byte) (decimal, bool) {
	var d decimal
	if len(s) > 0 && s[0] == '-' {
		d.neg = true
		s = s[1:]
	} else if len(s) > 0 && s[0] == '+' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	d.intPart = s[:i]
	digits := i
	if i < len(s) {
		if s[i] != '.' {
			return d, false
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j != len(s) {
			return d, false
		}
		d.frac = s[i+1:]
		digits += j - i - 1
	}
	if digits == 0 {
		return d, false
	}
	for len(d.intPart) > 0 && d.intPart[0] == '0' {
		d.intPart = d.intPart[1:]
	}
	for len(d.frac) > 0 && d.frac[len(d.frac)-1] == '0' {
		d.frac = d.frac[:len(d.frac)-1]
	}
	if len(d.intPart) == 0 && len(d.frac) == 0 {
		d.neg = false // -0 == 0
	}
	return d, true
}

// cmpDecimal returns -1, 0 or 1 as a < b, a == b, a > b.
func cmpDecimal(a, b decimal) int {
	if a.neg != b.neg {
		if a.neg {
			return -1
		}
		return 1
	}
	m := cmpMagnitude(a, b)
	if a.neg {
		return -m
	}
	return m
}

func cmpMagnitude(a, b decimal) int {
	if len(a.intPart) != len(b.intPart) {
		if len(a.intPart) < len(b.intPart) {
			return -1
		}
		return 1
	}
	if c := cmpBytes(a.intPart, b.intPart); c != 0 {
		return c
	}
	n := min(len(a.frac), len(b.frac))
	if c := cmpBytes(a.frac[:n], b.frac[:n]); c != 0 {
		return c
	}
	switch {
	case len(a.frac) > n:
		return 1 // the rest has a nonzero digit (trailing zeros are gone)
	case len(b.frac) > n:
		return -1
	}
	return 0
}

func cmpBytes(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return 0
}
