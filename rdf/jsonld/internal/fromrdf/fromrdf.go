// Package fromrdf implements the Serialize RDF as JSON-LD algorithm of the
// JSON-LD 1.1 Processing Algorithms (§8.4): quads to expanded JSON-LD node
// objects, with lists and, optionally, compound literals folded. Package
// jsonld compacts and writes the result.
package fromrdf

import (
	gocontext "context"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/isolda/isolda/rdf"
	"github.com/isolda/isolda/rdf/internal/excerpt"
	"github.com/isolda/isolda/rdf/jsonld/internal/ldproc"
)

// Values of Options.RDFDirection: how a base direction is encoded in RDF
// (JSON-LD 1.1 rdfDirection option).
const (
	// I18nDatatype encodes it in the datatype IRI
	// (https://www.w3.org/ns/i18n#<lang>_<dir>).
	I18nDatatype = "i18n-datatype"
	// CompoundLiteral encodes it as a blank node with rdf:value,
	// rdf:language and rdf:direction.
	CompoundLiteral = "compound-literal"
)

// I18nBase is the namespace of rdfDirection "i18n-datatype" datatypes.
const I18nBase = "https://www.w3.org/ns/i18n#"

// RDF vocabulary of lists and compound literals.
const (
	rdfList      = rdf.RDFNS + "List"
	rdfValue     = rdf.RDFNS + "value"
	rdfLanguage  = rdf.RDFNS + "language"
	rdfDirection = rdf.RDFNS + "direction"
)

// Options are the options of the Serialize RDF as JSON-LD algorithm.
type Options struct {
	// UseNativeTypes turns xsd:boolean, xsd:integer and xsd:double
	// literals into JSON booleans and numbers.
	UseNativeTypes bool
	// UseRDFType keeps rdf:type as a property instead of @type.
	UseRDFType bool
	// RDFDirection is "", I18nDatatype or CompoundLiteral.
	RDFDirection string
	// JSONLiterals turns rdf:JSON literals into @json values, as the
	// algorithm asks (JSON-LD 1.1 processing mode). Write leaves them typed
	// strings: reading an @json value back canonicalizes it, which would
	// change the lexical form of a literal that is not canonical JSON.
	JSONLiterals bool
	// TypedLists folds list nodes that also have rdf:type rdf:List, as
	// the algorithm does (losing those rdf:type statements). Write keeps
	// them as nodes.
	TypedLists bool
	// JSONLD10 selects JSON-LD 1.0 processing: no lists of lists (the head
	// of a list inside a list stays a node) and no @json values.
	JSONLD10 bool
}

// nodeObject is a node object under construction.
type nodeObject struct {
	obj  map[string]any
	seen map[string]map[string]struct{} // property -> keys of its values
	// usages of rdf:nil (only on the rdf:nil node): where it is the object.
	usages []usage
	chain  int // the fold (numbered from 1) that took the node into an @list
}

// usage is a reference to a node: the node, property and value object that
// refer to it.
type usage struct {
	node     *nodeObject
	property string
	value    map[string]any
}

func newNodeObject(id string) *nodeObject {
	return &nodeObject{obj: map[string]any{"@id": id}}
}

// add appends value to the node's property unless an equal value is there
// (step 6.1.8 of the algorithm). Short lists of values are searched; a
// property with many values gets a set of their keys, so that adding stays
// linear.
func (n *nodeObject) add(property string, value any) bool {
	arr, _ := n.obj[property].([]any)
	if len(arr) < ldproc.LinearDedup {
		for _, w := range arr {
			if ldproc.SameValue(value, w) {
				return false
			}
		}
		n.obj[property] = append(arr, value)
		return true
	}
	if n.seen == nil {
		n.seen = map[string]map[string]struct{}{}
	}
	set := n.seen[property]
	if set == nil {
		set = make(map[string]struct{}, 2*len(arr))
		for _, w := range arr {
			set[ldproc.ValueKey(w)] = struct{}{}
		}
		n.seen[property] = set
	}
	k := ldproc.ValueKey(value)
	if _, dup := set[k]; dup {
		return false
	}
	set[k] = struct{}{}
	n.obj[property] = append(arr, value)
	return true
}

// Convert is the Serialize RDF as JSON-LD algorithm of JSON-LD 1.1
// (https://www.w3.org/TR/json-ld11-api/#serialize-rdf-as-json-ld-algorithm)
// on quads (sorted, as by rdf.Dataset.Sorted). It returns expanded JSON-LD:
// node objects in order of @id, each graph's nodes under its name's node.
// It does linear work: values are deduplicated through sets, lists folded
// from rdf:nil backwards. ctx is polled every few thousand quads.
//
// Lists are folded only from blank nodes (as the algorithm says: an IRI
// node with rdf:first and rdf:rest keeps its IRI), and, so that the output
// reads back to the same dataset, only from blank nodes that occur in one
// graph (the algorithm would fold a node referenced from another graph, or
// one that also occurs in another graph), and never one that is the object
// of rdf:type.
func Convert(ctx gocontext.Context, quads []rdf.Quad, opts Options) ([]any, error) {
	defaultGraph := map[string]*nodeObject{}
	graphs := map[string]map[string]*nodeObject{"@default": defaultGraph}
	referencedOnce := map[string]*usage{} // nil: referenced more than once
	compound := map[string]map[string]bool{}
	// home is the one graph each blank node occurs in; a blank node in
	// several graphs (or naming one) cannot be folded into an @list, which
	// would give it a fresh identity in one graph only.
	home := map[string]string{}
	const several = "\x00several"
	occurs := func(id, name string) {
		if h, ok := home[id]; !ok {
			home[id] = name
		} else if h != name {
			home[id] = several
		}
	}
	for i, q := range quads {
		if i%checkEvery == checkEvery-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		name := "@default"
		if !q.G.IsZero() {
			name = nodeID(q.G)
		}
		nodes := graphs[name]
		if nodes == nil {
			nodes = map[string]*nodeObject{}
			graphs[name] = nodes
			if _, ok := defaultGraph[name]; !ok {
				defaultGraph[name] = newNodeObject(name)
			}
		}
		subject, predicate := nodeID(q.S), nodeID(q.P)
		if q.S.Kind == rdf.BlankKind {
			occurs(subject, name)
		}
		if q.G.Kind == rdf.BlankKind {
			occurs(name, several)
		}
		node := nodes[subject]
		if node == nil {
			node = newNodeObject(subject)
			nodes[subject] = node
		}
		if opts.RDFDirection == CompoundLiteral && predicate == rdfDirection {
			if compound[name] == nil {
				compound[name] = map[string]bool{}
			}
			compound[name][subject] = true
		}
		isNode := q.O.Kind == rdf.IRIKind || q.O.Kind == rdf.BlankKind
		var object string
		if isNode {
			object = nodeID(q.O)
			if nodes[object] == nil {
				nodes[object] = newNodeObject(object)
			}
		}
		if q.O.Kind == rdf.BlankKind {
			occurs(object, name)
		}
		if isNode && predicate == rdf.RDFType && !opts.UseRDFType {
			node.add("@type", object)
			// The algorithm does not count @type values as references,
			// but the node they name must keep its identity.
			referencedOnce[object] = nil
			continue
		}
		value, err := rdfToObject(q.O, opts)
		if err != nil {
			return nil, err
		}
		if !node.add(predicate, value) {
			continue
		}
		switch {
		case q.O.Kind == rdf.IRIKind && q.O.Value == rdf.RDFNil:
			n := nodes[object]
			n.usages = append(n.usages, usage{node, predicate, value})
		case q.O.Kind == rdf.BlankKind:
			if _, ok := referencedOnce[object]; ok {
				referencedOnce[object] = nil
			} else {
				referencedOnce[object] = &usage{node, predicate, value}
			}
		}
	}
	for id, h := range home {
		if h == several {
			referencedOnce[id] = nil
		}
	}
	for name, nodes := range graphs {
		for _, cl := range slices.Sorted(mapKeys(compound[name])) {
			if err := foldCompoundLiteral(nodes, referencedOnce, cl); err != nil {
				return nil, err
			}
		}
		foldLists(nodes, referencedOnce, opts)
	}
	var result []any
	for _, subject := range slices.Sorted(mapKeys(defaultGraph)) {
		node := defaultGraph[subject]
		if nodes, ok := graphs[subject]; ok {
			graph := []any{}
			for _, s := range slices.Sorted(mapKeys(nodes)) {
				if n := nodes[s]; len(n.obj) > 1 {
					graph = append(graph, n.obj)
				}
			}
			node.obj["@graph"] = graph
		}
		if len(node.obj) > 1 {
			result = append(result, node.obj)
		}
	}
	if result == nil {
		result = []any{}
	}
	return result, nil
}

// checkEvery is how many quads Convert converts between polls of its
// context.
const checkEvery = 4096

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// nodeID is the JSON-LD identifier of an IRI or blank node.
func nodeID(t rdf.Term) string {
	if t.Kind == rdf.BlankKind {
		return "_:" + t.Value
	}
	return t.Value
}

// foldLists replaces well-formed lists ending in rdf:nil by @list values
// and removes their nodes (step 6.4 of the algorithm).
func foldLists(nodes map[string]*nodeObject, referencedOnce map[string]*usage, opts Options) {
	nilNode := nodes[rdf.RDFNil]
	if nilNode == nil {
		return
	}
	for i, u := range nilNode.usages {
		chain := i + 1
		node, property, head := u.node, u.property, u.value
		var list []any
		var listNodes []string
		for property == rdf.RDFRest {
			id, _ := node.obj["@id"].(string)
			ref := referencedOnce[id]
			if !strings.HasPrefix(id, "_:") || ref == nil || !wellFormedListNode(node, opts.TypedLists) ||
				ref.node == node || ref.node.chain == chain {
				break // not a list node, or one the list refers to
			}
			node.chain = chain
			list = append(list, node.obj[rdf.RDFFirst].([]any)[0])
			listNodes = append(listNodes, id)
			node, property, head = ref.node, ref.property, ref.value
		}
		if opts.JSONLD10 && property == rdf.RDFFirst {
			// JSON-LD 1.0 has no lists of lists: the head of a list
			// inside another keeps its rdf:first, its rest becomes the
			// @list.
			if node.obj["@id"] == rdf.RDFNil || len(listNodes) == 0 {
				continue
			}
			headNode := nodes[head["@id"].(string)]
			head = headNode.obj[rdf.RDFRest].([]any)[0].(map[string]any)
			list = list[:len(list)-1]
			listNodes = listNodes[:len(listNodes)-1]
		}
		delete(head, "@id")
		slices.Reverse(list)
		if list == nil {
			list = []any{}
		}
		head["@list"] = list
		for _, id := range listNodes {
			delete(nodes, id)
		}
	}
}

// wellFormedListNode reports whether a node has exactly one rdf:first and
// one rdf:rest value and nothing else but its @id and, when typed is set,
// an optional @type rdf:List.
func wellFormedListNode(n *nodeObject, typed bool) bool {
	for k, v := range n.obj {
		switch k {
		case "@id":
		case rdf.RDFFirst, rdf.RDFRest:
			if arr, ok := v.([]any); !ok || len(arr) != 1 {
				return false
			}
		case "@type":
			if arr, ok := v.([]any); !typed || !ok || len(arr) != 1 || arr[0] != rdfList {
				return false
			}
		default:
			return false
		}
	}
	_, first := n.obj[rdf.RDFFirst]
	_, rest := n.obj[rdf.RDFRest]
	return first && rest
}

// foldCompoundLiteral replaces a reference to the compound literal cl (a
// node with rdf:value, rdf:language and rdf:direction) by the value object
// it stands for, and removes the node (rdfDirection "compound-literal").
func foldCompoundLiteral(nodes map[string]*nodeObject, referencedOnce map[string]*usage, cl string) error {
	ref := referencedOnce[cl]
	clNode := nodes[cl]
	if ref == nil || clNode == nil {
		return nil
	}
	str := func(p string) (string, bool) {
		arr, _ := clNode.obj[p].([]any)
		if len(arr) != 1 {
			return "", false
		}
		m, _ := arr[0].(map[string]any)
		s, ok := m["@value"].(string)
		return s, ok
	}
	value, ok := str(rdfValue)
	if !ok {
		return nil
	}
	delete(nodes, cl)
	v := ref.value
	delete(v, "@id")
	v["@value"] = value
	if lang, ok := str(rdfLanguage); ok {
		if _, writable := rdf.CheckLangTag(lang); !writable {
			return &ldproc.Error{Code: "invalid language-tagged string", Msg: excerpt.Quote(lang)}
		}
		v["@language"] = lang
	}
	if dir, ok := str(rdfDirection); ok {
		if dir != "ltr" && dir != "rtl" {
			return &ldproc.Error{Code: "invalid base direction", Msg: excerpt.Quote(dir)}
		}
		v["@direction"] = dir
	}
	return nil
}

var (
	xsdIntegerRE = regexp.MustCompile(`^[+-]?[0-9]+$`)
	xsdDoubleRE  = regexp.MustCompile(`^(\+|-)?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee](\+|-)?[0-9]+)?$`)
)

// rdfToObject is the RDF to Object Conversion algorithm: the value object
// of an RDF term.
func rdfToObject(t rdf.Term, opts Options) (map[string]any, error) {
	if t.Kind == rdf.IRIKind || t.Kind == rdf.BlankKind {
		return map[string]any{"@id": nodeID(t)}, nil
	}
	v := map[string]any{"@value": t.Value}
	lex, dt := t.Value, t.Datatype
	switch {
	case t.Dir != "":
		// An RDF 1.2 directional language-tagged string: what the reader
		// makes of @language with @direction by default.
		v["@language"] = t.Lang
		v["@direction"] = t.Dir
	case t.Lang != "":
		v["@language"] = t.Lang
	case opts.UseNativeTypes && dt == rdf.XSDString:
	case opts.UseNativeTypes && dt == rdf.XSDBoolean && (lex == "true" || lex == "1" || lex == "false" || lex == "0"):
		v["@value"] = lex == "true" || lex == "1"
	case opts.UseNativeTypes && dt == rdf.XSDInteger && xsdIntegerRE.MatchString(lex):
		if i, err := strconv.ParseInt(lex, 10, 64); err == nil {
			v["@value"] = i
		} else if f, err := strconv.ParseFloat(lex, 64); err == nil {
			v["@value"] = f
		} else {
			v["@type"] = dt
		}
	case opts.UseNativeTypes && dt == rdf.XSDDouble && xsdDoubleRE.MatchString(lex):
		f, err := strconv.ParseFloat(lex, 64)
		if err != nil {
			v["@type"] = dt
		} else {
			v["@value"] = f
		}
	case opts.JSONLiterals && !opts.JSONLD10 && dt == rdf.RDFJSON:
		var x any
		if err := json.Unmarshal([]byte(lex), &x); err != nil {
			return nil, &ldproc.Error{Code: "invalid JSON literal", Msg: excerpt.Quote(lex)}
		}
		v["@value"] = x
		v["@type"] = "@json"
	case opts.RDFDirection == I18nDatatype && strings.HasPrefix(dt, I18nBase):
		lang, dir, _ := strings.Cut(dt[len(I18nBase):], "_")
		if lang != "" {
			v["@language"] = lang
		}
		if dir != "" {
			v["@direction"] = dir
		}
	case dt != rdf.XSDString && dt != "":
		v["@type"] = dt
	}
	return v, nil
}
