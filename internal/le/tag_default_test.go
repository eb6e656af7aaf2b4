//go:build !purego

package le

const puregoTag = false
