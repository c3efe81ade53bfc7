package jsonobj

import (
	"encoding/json"
	"testing"
)

func TestObjectKeepsOrder(t *testing.T) {
	o := Object{{"z", 1}, {"a", Object{{"@id", "x<y"}}}, {"m", []string{"b", "a"}}, {"e", Object{}}}
	b, err := json.Marshal(map[string]any{"o": o})
	if want := `{"o":{"z":1,"a":{"@id":"x\u003cy"},"m":["b","a"],"e":{}}}`; err != nil || string(b) != want {
		t.Errorf("got %s, %v\nwant %s", b, err, want)
	}
	if _, err := json.Marshal(Object{{"f", func() {}}}); err == nil {
		t.Error("a value json cannot write: no error")
	}
}
