package token

// addedMatcher finds added (special) tokens in raw text, leftmost-longest,
// as the Hugging Face tokenizers do (an Aho-Corasick automaton with
// LeftmostLongest semantics; transformers.js uses a regex alternation sorted
// by length, which is the same). It is a byte trie: the work per position is
// bounded by the longest token, so a scan is linear in the text.
type addedMatcher struct {
	first [256]bool
	edges map[uint64]int32 // node<<8 | byte -> child node
	ids   []int32          // token id ending at each node, or -1
}

func newAddedMatcher(tokens map[string]int) *addedMatcher {
	m := &addedMatcher{edges: make(map[uint64]int32), ids: []int32{-1}}
	for content, id := range tokens {
		if content == "" {
			continue
		}
		m.first[content[0]] = true
		node := int32(0)
		for i := 0; i < len(content); i++ {
			k := uint64(node)<<8 | uint64(content[i])
			child, ok := m.edges[k]
			if !ok {
				child = int32(len(m.ids))
				m.ids = append(m.ids, -1)
				m.edges[k] = child
			}
			node = child
		}
		m.ids[node] = int32(id)
	}
	return m
}

// find returns the leftmost-longest added token at or after from: its byte
// range and id, or start -1.
func (m *addedMatcher) find(s string, from int) (start, end, id int) {
	for i := from; i < len(s); i++ {
		if !m.first[s[i]] {
			continue
		}
		node, best, bestID := int32(0), -1, -1
		for j := i; j < len(s); j++ {
			child, ok := m.edges[uint64(node)<<8|uint64(s[j])]
			if !ok {
				break
			}
			node = child
			if m.ids[node] >= 0 {
				best, bestID = j+1, int(m.ids[node])
			}
		}
		if best > 0 {
			return i, best, bestID
		}
	}
	return -1, -1, -1
}
