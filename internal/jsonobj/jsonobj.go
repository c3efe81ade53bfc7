// Package jsonobj marshals JSON objects whose members keep their order
// (encoding/json sorts the keys of a map): JSON-LD contexts and nodes, and
// reports that keep a reference program's dict order.
package jsonobj

import (
	"bytes"
	"encoding/json"
)

// Object is a JSON object whose members marshal in order.
type Object []Member

// Member is one key and value of an Object.
type Member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order, each value as json.Marshal
// writes it.
func (o Object) MarshalJSON() ([]byte, error) {
	return Marshal(len(o), func(i int) (string, any) { return o[i].Key, o[i].Value })
}

// Marshal writes the n members that entry returns, in index order, as one
// JSON object.
func Marshal(n int, entry func(i int) (string, any)) ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		key, value := entry(i)
		k, err := json.Marshal(key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
