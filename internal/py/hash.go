package py

import (
	"encoding/binary"
	"math/bits"
)

// StrHash is hash(s) of a str in CPython 3.11 with PYTHONHASHSEED=0, the
// setting that disables hash randomization: SipHash-1-3 with a zero key
// over the string's canonical storage (one byte per character when every
// character is below U+0100, two bytes little-endian when below U+10000,
// else four), 0 for the empty string, and -2 in place of -1. Invalid UTF-8
// is hashed as U+FFFD.
func StrHash(s string) int64 {
	if s == "" {
		return 0
	}
	width := 1
	n := 0
	for _, r := range s {
		n++
		switch {
		case r >= 0x10000:
			width = 4
		case r >= 0x100 && width < 2:
			width = 2
		}
	}
	buf := make([]byte, 0, n*width)
	for _, r := range s {
		switch width {
		case 1:
			buf = append(buf, byte(r))
		case 2:
			buf = binary.LittleEndian.AppendUint16(buf, uint16(r))
		default:
			buf = binary.LittleEndian.AppendUint32(buf, uint32(r))
		}
	}
	h := int64(siphash13(0, 0, buf))
	if h == -1 {
		return -2
	}
	return h
}

// siphash13 is CPython's SipHash-1-3 (Python/pyhash.c): one compression
// round per 8-byte block, three finalization rounds.
func siphash13(k0, k1 uint64, src []byte) uint64 {
	b := uint64(len(src)) << 56
	v0 := k0 ^ 0x736f6d6570736575
	v1 := k1 ^ 0x646f72616e646f6d
	v2 := k0 ^ 0x6c7967656e657261
	v3 := k1 ^ 0x7465646279746573
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13)
		v1 ^= v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16)
		v3 ^= v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21)
		v3 ^= v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17)
		v1 ^= v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	for len(src) >= 8 {
		m := binary.LittleEndian.Uint64(src)
		src = src[8:]
		v3 ^= m
		round()
		v0 ^= m
	}
	var t uint64
	for i := len(src) - 1; i >= 0; i-- {
		t = t<<8 | uint64(src[i])
	}
	b |= t
	v3 ^= b
	round()
	v0 ^= b
	v2 ^= 0xff
	round()
	round()
	round()
	return (v0 ^ v1) ^ (v2 ^ v3)
}

// TupleHash is hash(t) of a tuple whose items hash to the given values
// (CPython 3.8+'s xxHash-based tuplehash, 64-bit).
func TupleHash(items ...int64) int64 {
	const (
		prime1 = 11400714785074694791
		prime2 = 14029467366897019727
		prime5 = 2870177450012600261
	)
	acc := uint64(prime5)
	for _, h := range items {
		acc += uint64(h) * prime2
		acc = bits.RotateLeft64(acc, 31)
		acc *= prime1
	}
	acc += uint64(len(items)) ^ (prime5 ^ 3527539)
	if acc == ^uint64(0) {
		return 1546275796
	}
	return int64(acc)
}
