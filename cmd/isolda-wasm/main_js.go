//go:build js && wasm

package main

import "syscall/js"

// main registers globalThis.__isolda: {encode, decode, countTokens,
// convert}, each (input, optionsJSON) → {text} or {count}, or {error,
// file, line, column} (npm/index.js turns it into a rejected Error), and
// then serves calls until the page or process ends.
func main() {
	a := newAPI()
	obj := js.Global().Get("Object").New()
	uint8Array := js.Global().Get("Uint8Array")
	for _, op := range []string{"encode", "decode", "countTokens", "convert"} {
		obj.Set(op, js.FuncOf(func(_ js.Value, args []js.Value) any {
			var data []byte
			if len(args) > 0 {
				switch in := args[0]; {
				case in.Type() == js.TypeString:
					data = []byte(in.String())
				case in.InstanceOf(uint8Array):
					data = make([]byte, in.Length())
					js.CopyBytesToGo(data, in)
				default:
					return map[string]any{"error": "isolda: " + op + ": the input must be a string or a Uint8Array"}
				}
			}
			optsJSON := ""
			if len(args) > 1 && args[1].Type() == js.TypeString {
				optsJSON = args[1].String()
			}
			r := a.call(op, data, optsJSON)
			if r.Err != nil {
				return map[string]any{"error": r.Err.Error(), "file": r.File, "line": r.Line, "column": r.Column}
			}
			if op == "countTokens" {
				return map[string]any{"count": r.Count}
			}
			return map[string]any{"text": r.Text}
		}))
	}
	js.Global().Set("__isolda", obj)
	select {}
}
