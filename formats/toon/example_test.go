package toon_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/isolda/isolda/formats/toon"
)

func ExampleEncode() {
	v, err := toon.FromJSON([]byte(`{
		"users": [{"id": 1, "name": "Ada", "role": "admin"}, {"id": 2, "name": "Bob", "role": "user"}],
		"servers": {"alpha": {"host": "a.example.com", "port": 8080}, "beta": {"host": "b.example.com", "port": 9090}},
		"tags": ["x", "y,z"],
		"ratio": 1e-6
	}`))
	if err != nil {
		panic(err)
	}
	if err := toon.Encode(os.Stdout, v, toon.EncodeOptions{}); err != nil {
		panic(err)
	}
	// Output:
	// users[2]{id,name,role}:
	//   1,Ada,admin
	//   2,Bob,user
	// servers[2:]{host,port}:
	//   alpha: a.example.com,8080
	//   beta: b.example.com,9090
	// tags[2]: x,"y,z"
	// ratio: 0.000001
}

func ExampleEncode_keyFolding() {
	v, _ := toon.FromJSON([]byte(`{"a": {"b": {"c": 1}}, "d": {"e": [1, 2]}}`))
	_ = toon.Encode(os.Stdout, v, toon.EncodeOptions{Version: toon.V33, KeyFolding: true, Delimiter: toon.Pipe})
	// Output:
	// a.b.c: 1
	// d.e[2|]: 1|2
}

func ExampleDecode() {
	doc := "# inventory\nitems[2]{sku,qty}:\n  A1,2\n  B2,-0.50\n"
	v, err := toon.Decode(strings.NewReader(doc), toon.DecodeOptions{})
	if err != nil {
		panic(err)
	}
	js, _ := toon.ToJSON(v)
	fmt.Println(string(js))

	_, err = toon.Decode(strings.NewReader("tags[3]: a,b"), toon.DecodeOptions{File: "in.toon"})
	fmt.Println(err)
	// Output:
	// {"items":[{"sku":"A1","qty":2},{"sku":"B2","qty":-0.5}]}
	// in.toon:1:10: array declares 3 values but has 2
}
