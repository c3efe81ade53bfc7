package main

import "testing"

// TestBucketKey checks that a grouping key gives back its bucket and
// number of buckets, and that keys of no bucket are refused.
func TestBucketKey(t *testing.T) {
	for _, n := range []int{1, 2, 7, 1 << 20} {
		for _, b := range []int{0, 1, n / 2, n - 1} {
			if b >= n {
				continue
			}
			gb, gn, ok := splitKey(bucketKey(b, n))
			if !ok || gb != b || gn != n {
				t.Errorf("splitKey(bucketKey(%d, %d)) = %d, %d, %v", b, n, gb, gn, ok)
			}
		}
	}
	for _, k := range []int{0, 5, bucketKey(3, 3), -1} {
		if b, n, ok := splitKey(k); ok {
			t.Errorf("splitKey(%d) = %d, %d, true: want no bucket", k, b, n)
		}
	}
}
