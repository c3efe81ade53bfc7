package ldproc

import (
	"slices"
	"strings"

	"github.com/isolda/isolda/rdf"
)

// This file implements the Expansion Algorithm (JSON-LD 1.1 API §5.1) and
// Value Expansion (§5.3).

// expander expands one document.
type expander struct {
	p *ctxProc
	// path is the path (keys and indexes) of the value being expanded.
	// Steps are removed on success only, so that after an error it
	// locates the value at fault.
	path []any
}

// language records a language tag of the document that is not well
// formed as a suspect (see Env.Suspect) at the value being expanded.
func (x *expander) language(tag string) {
	if msg, _ := rdf.CheckLangTag(tag); msg != "" {
		x.p.env.Suspect(tag, x.path)
	}
}

// literal records a literal value of the document longer than the term
// length limit as a suspect at the value being expanded.
func (x *expander) literal(v any) {
	if s, ok := v.(string); ok && x.p.env.TooLong(s) {
		x.p.env.Suspect(s, x.path)
	}
}

func isMap(v any) bool { _, ok := v.(map[string]any); return ok }

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, float64:
		return true
	}
	return false
}

func has(m map[string]any, k string) bool { _, ok := m[k]; return ok }

// isGraphObject reports whether v is a graph object: a map with @graph and
// at most @id, @index and @context besides.
func isGraphObject(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || !has(m, "@graph") {
		return false
	}
	for k := range m {
		switch k {
		case "@graph", "@id", "@index", "@context":
		default:
			return false
		}
	}
	return true
}

func isListObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && has(m, "@list")
}

func isValueObject(v any) bool {
	m, ok := v.(map[string]any)
	return ok && has(m, "@value")
}

// appendValue appends v (an array's items, or one value) to m[k], making
// m[k] an array.
func appendValue(m map[string]any, k string, v any) {
	cur, _ := m[k].([]any)
	if cur == nil {
		cur = []any{}
	}
	if a, ok := v.([]any); ok {
		cur = append(cur, a...)
	} else {
		cur = append(cur, v)
	}
	m[k] = cur
}

// expand is the Expansion Algorithm (§5.1.2). activeProperty is "" for
// null.
func (x *expander) expand(active *context, activeProperty string, element any, baseURL string, fromMap bool) (any, error) {
	if element == nil {
		return nil, nil
	}
	td := active.terms[activeProperty]
	switch e := element.(type) {
	case []any:
		result := []any{}
		n := len(x.path)
		for i, item := range e {
			x.path = append(x.path[:n], i)
			ev, err := x.expand(active, activeProperty, item, baseURL, fromMap)
			if err != nil {
				return nil, err
			}
			if td != nil && td.container&cList != 0 {
				if a, ok := ev.([]any); ok {
					if active.is10() {
						return nil, ldErr("list of lists", "a list in a list (json-ld-1.0 mode)")
					}
					ev = map[string]any{"@list": a}
				}
			}
			if active.is10() && isListObject(ev) && (td != nil && td.container&cList != 0) {
				return nil, ldErr("list of lists", "a list in a list (json-ld-1.0 mode)")
			}
			switch v := ev.(type) {
			case nil:
			case []any:
				result = append(result, v...)
			default:
				result = append(result, v)
			}
		}
		x.path = x.path[:n]
		return result, nil
	case map[string]any:
		return x.expandObject(active, activeProperty, td, e, baseURL, fromMap)
	default:
		if activeProperty == "" || activeProperty == "@graph" {
			return nil, nil
		}
		if td != nil && td.hasCtx {
			c, err := x.p.scoped(active, td, true, true)
			if err != nil {
				return nil, err
			}
			active = c
		}
		return x.expandValue(active, activeProperty, element)
	}
}

// expandKey IRI-expands a key (vocabulary-relative).
func (x *expander) expandKey(active *context, key string) (string, bool, error) {
	return x.p.expandIRI(active, key, false, true, nil)
}

func (x *expander) expandObject(active *context, activeProperty string, td *termDef, element map[string]any,
	baseURL string, fromMap bool) (any, error) {
	keys := sortedKeys(element)
	// Step 7: revert a non-propagated context.
	if active.previous != nil && !fromMap {
		revert := true
		onlyID := len(keys) == 1
		for _, k := range keys {
			ek, _, err := x.expandKey(active, k)
			if err != nil {
				return nil, err
			}
			if ek == "@value" || (onlyID && ek == "@id") {
				revert = false
			}
		}
		if revert {
			active = active.previous
		}
	}
	if td != nil && td.hasCtx {
		c, err := x.p.scoped(active, td, true, true)
		if err != nil {
			return nil, err
		}
		active = c
	}
	if lc, ok := element["@context"]; ok {
		n := len(x.path)
		x.path = append(x.path, "@context")
		c, err := x.p.embedded(active, lc, baseURL)
		if err != nil {
			return nil, err
		}
		x.path = x.path[:n]
		active = c
	}
	typeScoped := active
	lastType := "" // the last value of the first entry expanding to @type
	typeKey := ""  // that entry's key
	firstType := true
	for _, k := range keys {
		ek, _, err := x.expandKey(active, k)
		if err != nil {
			return nil, err
		}
		if ek != "@type" {
			continue
		}
		var terms []string
		for _, t := range ArrayOf(element[k]) {
			if s, ok := t.(string); ok {
				terms = append(terms, s)
			}
		}
		if firstType && len(terms) > 0 {
			lastType, typeKey = terms[len(terms)-1], k
		}
		firstType = false
		slices.Sort(terms)
		for _, t := range terms {
			if d := typeScoped.terms[t]; d != nil && d.hasCtx {
				c, err := x.p.scoped(active, d, false, false)
				if err != nil {
					return nil, err
				}
				active = c
			}
		}
	}
	inputType := ""
	if lastType != "" {
		n := len(x.path)
		x.path = append(x.path, typeKey)
		it, _, err := x.expandKey(active, lastType)
		if err != nil {
			return nil, err
		}
		x.path = x.path[:n]
		inputType = it
	}
	result := map[string]any{}
	if err := x.expandEntries(active, typeScoped, activeProperty, element, keys, result, baseURL, inputType); err != nil {
		return nil, err
	}
	return x.finishObject(active, activeProperty, result)
}

// expandEntries is step 13 and 14 of the algorithm: it expands the entries
// of element into result.
func (x *expander) expandEntries(active, typeScoped *context, activeProperty string, element map[string]any,
	keys []string, result map[string]any, baseURL, inputType string) error {
	var nests []string
	n := len(x.path)
	for _, key := range keys {
		x.path = append(x.path[:n], key)
		value := element[key]
		if key == "@context" {
			continue
		}
		ep, ok, err := x.expandKey(active, key)
		if err != nil {
			return err
		}
		if !ok || (!strings.Contains(ep, ":") && !isKeyword(ep)) {
			continue
		}
		if isKeyword(ep) {
			if activeProperty == "@reverse" {
				return ldErr("invalid reverse property map", "keyword %s in a reverse map", ep)
			}
			if has(result, ep) && (active.is10() || (ep != "@included" && ep != "@type")) {
				return ldErr("colliding keywords", "%s", ep)
			}
			var ev any
			switch ep {
			case "@id":
				s, ok := value.(string)
				if !ok {
					return ldErr("invalid @id value", "%v", value)
				}
				id, ok, err := x.p.expandIRI(active, s, true, false, nil)
				if err != nil {
					return err
				}
				if !ok {
					// A keyword-like @id is ignored: the node keeps a
					// null @id, so no triple uses it (expand test 0122).
					result["@id"] = nil
					continue
				}
				ev = id
			case "@type":
				var types []any
				switch v := value.(type) {
				case string:
					types = []any{v}
				case []any:
					types = v
				default:
					return ldErr("invalid type value", "%v", value)
				}
				out := make([]any, 0, len(types))
				for _, t := range types {
					s, ok := t.(string)
					if !ok {
						return ldErr("invalid type value", "%v", value)
					}
					iri, ok, err := x.p.expandIRI(typeScoped, s, true, true, nil)
					if err != nil {
						return err
					}
					if ok {
						out = append(out, iri)
					}
				}
				if old, ok := result["@type"]; ok {
					out = append(ArrayOf(old), out...)
				}
				if _, isArr := value.([]any); isArr || len(out) != 1 || has(result, "@type") {
					ev = out
				} else {
					ev = out[0]
				}
			case "@graph":
				v, err := x.expand(active, "@graph", value, baseURL, false)
				if err != nil {
					return err
				}
				ev = ArrayOf(v)
				if v == nil {
					ev = []any{}
				}
			case "@included":
				if active.is10() {
					continue
				}
				v, err := x.expand(active, "@included", value, baseURL, false)
				if err != nil {
					return err
				}
				items := ArrayOf(v)
				if v == nil {
					items = []any{}
				}
				for _, it := range items {
					m, ok := it.(map[string]any)
					if !ok || has(m, "@value") || has(m, "@list") || has(m, "@set") {
						return ldErr("invalid @included value", "not a node object")
					}
				}
				if old, ok := result["@included"].([]any); ok {
					items = append(old, items...)
				}
				ev = items
			case "@value":
				if inputType == "@json" {
					if active.is10() {
						return ldErr("invalid value object value", "@json in json-ld-1.0 mode")
					}
					result["@value"] = value
					continue
				}
				if value != nil && !isScalar(value) {
					return ldErr("invalid value object value", "%v", value)
				}
				x.literal(value)
				result["@value"] = value
				continue
			case "@language":
				s, ok := value.(string)
				if !ok {
					return ldErr("invalid language-tagged string", "%v", value)
				}
				x.language(s)
				ev = s // kept as written; tags compare case-insensitively
			case "@direction":
				if active.is10() {
					continue
				}
				if value != "ltr" && value != "rtl" {
					return ldErr("invalid base direction", "%v", value)
				}
				ev = value
			case "@index":
				s, ok := value.(string)
				if !ok {
					return ldErr("invalid @index value", "%v", value)
				}
				ev = s
			case "@list":
				if activeProperty == "" || activeProperty == "@graph" {
					continue
				}
				v, err := x.expand(active, activeProperty, value, baseURL, false)
				if err != nil {
					return err
				}
				if v == nil {
					v = []any{}
				}
				if _, ok := v.([]any); !ok {
					v = []any{v}
				}
				if active.is10() {
					for _, item := range v.([]any) {
						if isListObject(item) {
							return ldErr("list of lists", "a list in a list (json-ld-1.0 mode)")
						}
					}
				}
				ev = v
			case "@set":
				v, err := x.expand(active, activeProperty, value, baseURL, false)
				if err != nil {
					return err
				}
				ev = v
			case "@reverse":
				if !isMap(value) {
					return ldErr("invalid @reverse value", "not an object")
				}
				v, err := x.expand(active, "@reverse", value, baseURL, false)
				if err != nil {
					return err
				}
				vm, _ := v.(map[string]any)
				if r, ok := vm["@reverse"].(map[string]any); ok {
					for _, prop := range sortedKeys(r) {
						appendValue(result, prop, r[prop])
					}
				}
				if len(vm) > 0 && !(len(vm) == 1 && has(vm, "@reverse")) {
					rm, _ := result["@reverse"].(map[string]any)
					if rm == nil {
						rm = map[string]any{}
						result["@reverse"] = rm
					}
					for _, prop := range sortedKeys(vm) {
						if prop == "@reverse" {
							continue
						}
						for _, item := range ArrayOf(vm[prop]) {
							if isValueObject(item) || isListObject(item) {
								return ldErr("invalid reverse property value", "%s", prop)
							}
							appendValue(rm, prop, item)
						}
					}
				}
				continue
			case "@nest":
				nests = append(nests, key)
				continue
			default:
				// Framing keywords and others: ignored outside framing.
				continue
			}
			if ev != nil {
				result[ep] = ev
			}
			continue
		}
		kd := active.terms[key]
		var container int
		if kd != nil {
			container = kd.container
		}
		var ev any
		vm, valueIsMap := value.(map[string]any)
		switch {
		case kd != nil && kd.typ == "@json":
			ev = map[string]any{"@value": value, "@type": "@json"}
		case container&cLanguage != 0 && valueIsMap:
			items := []any{}
			dir := active.dir
			if kd.hasDir {
				dir = kd.dir
			}
			for _, lang := range sortedKeys(vm) {
				el, _, err := x.expandKey(active, lang)
				if err != nil {
					return err
				}
				for _, item := range ArrayOf(vm[lang]) {
					if item == nil {
						continue
					}
					s, ok := item.(string)
					if !ok {
						return ldErr("invalid language map value", "%v", item)
					}
					v := map[string]any{"@value": s}
					x.literal(s)
					if el != "@none" {
						x.language(lang)
						v["@language"] = lang
					}
					if dir != "" && !active.is10() {
						v["@direction"] = dir
						if el == "@none" {
							x.p.env.Suspect(DirectionAlone, x.path)
						}
					}
					items = append(items, v)
				}
			}
			ev = items
		case container&(cIndex|cType|cID) != 0 && valueIsMap:
			items, err := x.expandMap(active, key, kd, vm, baseURL)
			if err != nil {
				return err
			}
			ev = items
		default:
			v, err := x.expand(active, key, value, baseURL, false)
			if err != nil {
				return err
			}
			ev = v
		}
		if ev == nil {
			continue
		}
		if container&cList != 0 && !isListObject(ev) {
			a, ok := ev.([]any)
			if !ok {
				a = []any{ev}
			}
			ev = map[string]any{"@list": a}
		}
		if container&cGraph != 0 && container&(cID|cIndex) == 0 {
			var out []any
			for _, item := range ArrayOf(ev) {
				out = append(out, map[string]any{"@graph": ArrayOf(item)})
			}
			ev = out
		}
		if kd != nil && kd.reverse {
			rm, _ := result["@reverse"].(map[string]any)
			if rm == nil {
				rm = map[string]any{}
				result["@reverse"] = rm
			}
			for _, item := range ArrayOf(ev) {
				if isValueObject(item) || isListObject(item) {
					return ldErr("invalid reverse property value", "%s", key)
				}
				appendValue(rm, ep, item)
			}
			continue
		}
		appendValue(result, ep, ev)
	}
	x.path = x.path[:n]
	slices.Sort(nests)
	for _, nk := range nests {
		for i, nv := range ArrayOf(element[nk]) {
			x.path = append(x.path[:n], nk, i)
			nm, ok := nv.(map[string]any)
			if !ok {
				return ldErr("invalid @nest value", "not an object")
			}
			for k := range nm {
				ek, _, err := x.expandKey(active, k)
				if err != nil {
					return err
				}
				if ek == "@value" {
					return ldErr("invalid @nest value", "a value object")
				}
			}
			nestCtx := active
			if d := active.terms[nk]; d != nil && d.hasCtx {
				c, err := x.p.scoped(active, d, true, true)
				if err != nil {
					return err
				}
				nestCtx = c
			}
			if err := x.expandEntries(nestCtx, typeScoped, activeProperty, nm, sortedKeys(nm), result, baseURL, inputType); err != nil {
				return err
			}
		}
	}
	x.path = x.path[:n]
	return nil
}

// expandMap expands an index, id or type map (step 13.8).
func (x *expander) expandMap(active *context, key string, kd *termDef, vm map[string]any, baseURL string) ([]any, error) {
	container := kd.container
	items := []any{}
	indexKey := "@index"
	if kd.index != "" {
		indexKey = kd.index
	}
	n := len(x.path)
	for _, index := range sortedKeys(vm) {
		x.path = append(x.path[:n], index)
		mapCtx := active
		if container&(cID|cType) != 0 && active.previous != nil {
			mapCtx = active.previous
		}
		if container&cType != 0 {
			if d := mapCtx.terms[index]; d != nil && d.hasCtx {
				c, err := x.p.scoped(mapCtx, d, false, true)
				if err != nil {
					return nil, err
				}
				mapCtx = c
			}
		} else {
			mapCtx = active
		}
		expIndex, _, err := x.expandKey(active, index)
		if err != nil {
			return nil, err
		}
		iv, err := x.expand(mapCtx, key, ArrayOf(vm[index]), baseURL, true)
		if err != nil {
			return nil, err
		}
		for _, item := range ArrayOf(iv) {
			if container&cGraph != 0 && !isGraphObject(item) {
				item = map[string]any{"@graph": ArrayOf(item)}
			}
			im, ok := item.(map[string]any)
			if !ok {
				continue
			}
			switch {
			case container&cIndex != 0 && indexKey != "@index" && expIndex != "@none":
				re, err := x.expandValue(active, indexKey, index)
				if err != nil {
					return nil, err
				}
				eik, _, err := x.expandKey(active, indexKey)
				if err != nil {
					return nil, err
				}
				vals := []any{re}
				if old, ok := im[eik]; ok {
					vals = append(vals, ArrayOf(old)...)
				}
				im[eik] = vals
				if isValueObject(im) && len(im) > 1 {
					return nil, ldErr("invalid value object", "property-valued index on a value")
				}
			case container&cIndex != 0 && !has(im, "@index") && expIndex != "@none":
				im["@index"] = index
			case container&cID != 0 && !has(im, "@id") && expIndex != "@none":
				id, _, err := x.p.expandIRI(active, index, true, false, nil)
				if err != nil {
					return nil, err
				}
				im["@id"] = id
			case container&cType != 0 && expIndex != "@none":
				types := []any{expIndex}
				if old, ok := im["@type"]; ok {
					types = append(types, ArrayOf(old)...)
				}
				im["@type"] = types
			}
			items = append(items, im)
		}
	}
	x.path = x.path[:n]
	return items, nil
}

// finishObject is steps 15 to 20 of the algorithm.
func (x *expander) finishObject(active *context, activeProperty string, result map[string]any) (any, error) {
	if v, ok := result["@value"]; ok {
		for k := range result {
			switch k {
			case "@direction", "@index", "@language", "@type", "@value":
			default:
				return nil, ldErr("invalid value object", "unexpected entry %s", k)
			}
		}
		if has(result, "@type") && (has(result, "@language") || has(result, "@direction")) {
			return nil, ldErr("invalid value object", "@type with @language or @direction")
		}
		if has(result, "@direction") && !has(result, "@language") {
			x.p.env.Suspect(DirectionAlone, x.path)
		}
		if t, _ := result["@type"].(string); t == "@json" {
			// A JSON literal: any value.
		} else if v == nil {
			return nil, nil
		} else if _, isStr := v.(string); !isStr && has(result, "@language") {
			return nil, ldErr("invalid language-tagged value", "%v", v)
		} else if t, ok := result["@type"]; ok {
			// A datatype that is not an IRI is an error; one that is not
			// well formed or not absolute (relative, with no base) is left
			// for the conversion to RDF to drop or keep with a warning, as
			// such IRIs elsewhere, unless DropInvalid asks for the
			// algorithm to the letter.
			s, isStr := t.(string)
			if !isStr || strings.HasPrefix(s, "_:") ||
				x.p.cfg.DropInvalid && (!isAbsoluteOrBlank(s) || CheckIRI(s) != "") {
				return nil, ldErr("invalid typed value", "%v", t)
			}
		}
	} else if t, ok := result["@type"]; ok {
		if _, isArr := t.([]any); !isArr {
			result["@type"] = []any{t}
		}
	} else if has(result, "@set") || has(result, "@list") {
		if len(result) > 2 || (len(result) == 2 && !has(result, "@index")) {
			return nil, ldErr("invalid set or list object", "unexpected entries")
		}
		if s, ok := result["@set"]; ok {
			return s, nil
		}
	}
	if len(result) == 1 && has(result, "@language") {
		return nil, nil
	}
	if activeProperty == "" || activeProperty == "@graph" {
		if len(result) == 0 || has(result, "@value") || has(result, "@list") {
			return nil, nil
		}
		if len(result) == 1 && has(result, "@id") {
			return nil, nil
		}
	}
	return result, nil
}

func isAbsoluteOrBlank(s string) bool {
	return strings.Contains(s, ":")
}

// expandValue is the Value Expansion algorithm (§5.3.2).
func (x *expander) expandValue(active *context, activeProperty string, value any) (any, error) {
	td := active.terms[activeProperty]
	if s, ok := value.(string); ok && td != nil {
		switch td.typ {
		case "@id":
			id, _, err := x.p.expandIRI(active, s, true, false, nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{"@id": id}, nil
		case "@vocab":
			id, _, err := x.p.expandIRI(active, s, true, true, nil)
			if err != nil {
				return nil, err
			}
			return map[string]any{"@id": id}, nil
		}
	}
	x.literal(value)
	result := map[string]any{"@value": value}
	if td != nil && td.typ != "" && td.typ != "@id" && td.typ != "@vocab" && td.typ != "@none" {
		result["@type"] = td.typ
		return result, nil
	}
	if _, ok := value.(string); ok {
		lang, hasLang := active.lang, active.lang != ""
		if td != nil && td.hasLang {
			lang, hasLang = td.lang, !td.langNull
		}
		dir := active.dir
		if td != nil && td.hasDir {
			dir = td.dir
		}
		if hasLang {
			x.language(lang)
			result["@language"] = lang
		}
		if dir != "" && !active.is10() {
			result["@direction"] = dir
			if !hasLang {
				x.p.env.Suspect(DirectionAlone, x.path)
			}
		}
	}
	return result, nil
}

// expandDocument expands a whole document (the expand() API method):
// the result is always an array.
func (x *expander) expandDocument(doc any, base string, expandContext any) ([]any, error) {
	mode := x.p.cfg.ProcessingMode
	if mode == "" {
		mode = JSONLD11
	}
	active := newContext(base, mode)
	if expandContext != nil {
		ec := expandContext
		if m, ok := ec.(map[string]any); ok && has(m, "@context") {
			ec = m["@context"]
		}
		c, err := x.p.process(active, ec, base, nil, false, true, true)
		if err != nil {
			return nil, err
		}
		active = c
	}
	v, err := x.expand(active, "", doc, base, false)
	if err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok && len(m) == 1 && has(m, "@graph") {
		v = m["@graph"]
	}
	if v == nil {
		return []any{}, nil
	}
	return ArrayOf(v), nil
}
