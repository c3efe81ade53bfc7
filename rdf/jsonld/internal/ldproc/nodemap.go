package ldproc

import (
	"encoding/json"
	"strconv"
	"strings"
)

// This file implements Node Map Generation (JSON-LD 1.1 API §7.2). The node
// map has the shape the Deserialize JSON-LD to RDF step (torf.go) reads:
// graph name -> subject -> node, each node a map with "@id", "@type" (a
// list of IRIs) and properties (lists of node references, value objects
// and list objects).

// nodeMapper generates one node map.
type nodeMapper struct {
	issuer  *IdentifierIssuer
	nodeMap map[string]any
	seen    map[propKey]map[string]bool // value keys of long property lists
}

// propKey identifies a property of a node in a graph.
type propKey struct{ graph, subject, prop string }

func newNodeMapper(issuer *IdentifierIssuer) *nodeMapper {
	return &nodeMapper{issuer: issuer, nodeMap: map[string]any{"@default": map[string]any{}},
		seen: map[propKey]map[string]bool{}}
}

// label maps a blank node identifier of the input to a fresh one.
func (nm *nodeMapper) label(id string) string {
	if strings.HasPrefix(id, "_:") {
		return nm.issuer.ID(id)
	}
	return id
}

// ValueKey is a canonical key for deduplicating values: a short form for
// node references and flat value objects, else the JSON (with sorted
// keys).
func ValueKey(v any) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case map[string]any:
		if id, ok := x["@id"].(string); ok && len(x) == 1 {
			return "i" + id
		}
		var sb strings.Builder
		sb.WriteByte('v')
		for _, k := range sortedKeys(x) {
			// Lengths make the key unambiguous whatever the strings hold.
			sb.WriteString(strconv.Itoa(len(k)))
			sb.WriteByte(':')
			sb.WriteString(k)
			switch e := x[k].(type) {
			case string:
				sb.WriteByte('s')
				sb.WriteString(strconv.Itoa(len(e)))
				sb.WriteByte(':')
				sb.WriteString(e)
			case float64:
				sb.WriteByte('f')
				sb.WriteString(strconv.FormatFloat(e, 'g', -1, 64))
			case bool:
				sb.WriteByte('b')
				sb.WriteString(strconv.FormatBool(e))
			default:
				return jsonKey(v)
			}
			sb.WriteByte(0)
		}
		return sb.String()
	}
	return jsonKey(v)
}

// jsonKey is the JSON text of v (maps with sorted keys), prefixed so that
// it cannot equal a key ValueKey builds.
func jsonKey(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return "j" + string(b)
}

// LinearDedup is the number of values of a property up to which
// duplicates are found by comparison; longer lists get a set of keys.
const LinearDedup = 16

// addUnique adds v to node[prop] unless an equal value is already there.
func (nm *nodeMapper) addUnique(graph, subject string, node map[string]any, prop string, v any) {
	vals, _ := node[prop].([]any)
	if len(vals) < LinearDedup {
		for _, w := range vals {
			if SameValue(v, w) {
				return
			}
		}
		appendValue(node, prop, v)
		return
	}
	pk := propKey{graph, subject, prop}
	set := nm.seen[pk]
	if set == nil {
		set = make(map[string]bool, len(vals)+1)
		for _, w := range vals {
			if !isListObject(w) {
				set[ValueKey(w)] = true
			}
		}
		nm.seen[pk] = set
	}
	k := ValueKey(v)
	if set[k] {
		return
	}
	set[k] = true
	appendValue(node, prop, v)
}

// SameValue compares two values of the node map (strings, node references
// and value objects; list objects are never equal, as lists are not
// merged).
func SameValue(a, b any) bool {
	switch x := a.(type) {
	case string:
		y, ok := b.(string)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) || has(x, "@list") || has(y, "@list") {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok {
				return false
			}
			switch xs := xv.(type) {
			case string, float64, bool, nil:
				if xs != yv {
					return false
				}
			default:
				if ValueKey(xv) != ValueKey(yv) {
					return false
				}
			}
		}
		return true
	}
	return ValueKey(a) == ValueKey(b)
}

func (nm *nodeMapper) graph(name string) map[string]any {
	g, ok := nm.nodeMap[name].(map[string]any)
	if !ok {
		g = map[string]any{}
		nm.nodeMap[name] = g
	}
	return g
}

// generate is the Node Map Generation algorithm (§7.2.2). activeSubject is
// a string (a subject identifier), a map (a node reference, for reverse
// properties) or nil; list, if not nil, is the list object being built.
func (nm *nodeMapper) generate(element any, activeGraph string, activeSubject any, activeProperty string,
	list map[string]any) error {
	if a, ok := element.([]any); ok {
		for _, item := range a {
			if err := nm.generate(item, activeGraph, activeSubject, activeProperty, list); err != nil {
				return err
			}
		}
		return nil
	}
	elem, ok := element.(map[string]any)
	if !ok {
		return nil
	}
	graph := nm.graph(activeGraph)
	var subjectNode map[string]any
	subjectID, _ := activeSubject.(string)
	if subjectID != "" {
		subjectNode, _ = graph[subjectID].(map[string]any)
	}
	if t, ok := elem["@type"]; ok && !has(elem, "@value") {
		var types []any
		for _, item := range ArrayOf(t) {
			if s, ok := item.(string); ok {
				types = append(types, nm.label(s))
			}
		}
		elem["@type"] = types
	}
	if has(elem, "@value") {
		if list == nil {
			if subjectNode != nil {
				nm.addUnique(activeGraph, subjectID, subjectNode, activeProperty, elem)
			}
		} else {
			appendValue(list, "@list", elem)
		}
		return nil
	}
	if l, ok := elem["@list"]; ok {
		result := map[string]any{"@list": []any{}}
		if err := nm.generate(l, activeGraph, activeSubject, activeProperty, result); err != nil {
			return err
		}
		if list == nil {
			if subjectNode != nil {
				appendValue(subjectNode, activeProperty, result)
			}
		} else {
			appendValue(list, "@list", result)
		}
		return nil
	}
	var id string
	if v, ok := elem["@id"].(string); ok {
		id = nm.label(v)
	} else if has(elem, "@id") {
		// A null @id (an ignored keyword-like value): no triple has this
		// node as subject or object, but the nodes and values it
		// contains are processed (with no subject to attach them to).
		for _, prop := range sortedKeys(elem) {
			if prop == "@included" {
				if err := nm.generate(elem[prop], activeGraph, nil, "", nil); err != nil {
					return err
				}
			} else if !isKeyword(prop) {
				if err := nm.generate(elem[prop], activeGraph, "", prop, nil); err != nil {
					return err
				}
			}
		}
		return nil
	} else {
		id = nm.issuer.ID("")
	}
	node, ok := graph[id].(map[string]any)
	if !ok {
		node = map[string]any{"@id": id}
		graph[id] = node
	}
	if ref, ok := activeSubject.(map[string]any); ok {
		nm.addUnique(activeGraph, id, node, activeProperty, ref)
	} else if activeProperty != "" {
		ref := map[string]any{"@id": id}
		if list == nil {
			if subjectNode != nil {
				nm.addUnique(activeGraph, subjectID, subjectNode, activeProperty, ref)
			}
		} else {
			appendValue(list, "@list", ref)
		}
	}
	if t, ok := elem["@type"].([]any); ok {
		for _, ty := range t {
			nm.addUnique(activeGraph, id, node, "@type", ty)
		}
	}
	if idx, ok := elem["@index"]; ok {
		if old, ok := node["@index"]; ok && old != idx {
			return ldErr("conflicting indexes", "node %s", id)
		}
		node["@index"] = idx
	}
	if r, ok := elem["@reverse"].(map[string]any); ok {
		ref := map[string]any{"@id": id}
		for _, prop := range sortedKeys(r) {
			for _, v := range ArrayOf(r[prop]) {
				if err := nm.generate(v, activeGraph, ref, prop, nil); err != nil {
					return err
				}
			}
		}
	}
	if g, ok := elem["@graph"]; ok {
		nm.graph(id)
		if err := nm.generate(g, id, nil, "", nil); err != nil {
			return err
		}
	}
	if inc, ok := elem["@included"]; ok {
		if err := nm.generate(inc, activeGraph, nil, "", nil); err != nil {
			return err
		}
	}
	for _, prop := range sortedKeys(elem) {
		if isKeyword(prop) {
			continue
		}
		p := nm.label(prop)
		if _, ok := node[p]; !ok {
			node[p] = []any{}
		}
		if err := nm.generate(elem[prop], activeGraph, id, p, nil); err != nil {
			return err
		}
	}
	return nil
}
