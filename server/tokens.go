package server

// TokensRequest is the body of POST /v1/tokens: a text whose tokens to
// count, as `isolda tokens --tokenizer NAME`.
type TokensRequest struct {
	// Text is the text to count; an empty or absent text has 0 tokens,
	// as an empty input of isolda tokens.
	Text string `json:"text"`
	// Tokenizer names the tokenizer: the server's default (o200k_base
	// unless configured) or one of the tokenizers it allows (an unknown
	// name gets 422 listing them).
	Tokenizer string `json:"tokenizer,omitempty"`
}

// TokensResponse is the answer of POST /v1/tokens.
type TokensResponse struct {
	// Tokens is the exact number of tokens of Text: the number `isolda
	// tokens` prints.
	Tokens int `json:"tokens"`
	// Tokenizer is the name of the tokenizer that counted them.
	Tokenizer string `json:"tokenizer"`
	// Bytes is the size of the text.
	Bytes int `json:"bytes"`
}

func (s *server) tokens(req *request) (any, *apiError) {
	var r TokensRequest
	if e := decodeWithData(req.body, &r, func() *string { return &r.Text }); e != nil {
		return nil, e
	}
	tok, e := s.tokenizer(r.Tokenizer)
	if e != nil {
		return nil, e
	}
	// The body and the text decoded from it are held from here on.
	if e := req.mem.growTo(memCountBase + int64(len(req.body)+len(r.Text))); e != nil {
		return nil, e
	}
	// Counting takes time in proportion to the text: a long text is a
	// large request, as a large graph.
	if len(r.Text) > s.cfg.LargeBytes {
		if e := req.takeLarge(); e != nil {
			return nil, e
		}
	}
	n, e := countTokens(req, tok, r.Text)
	if e != nil {
		return nil, e
	}
	if req.ctx.Err() != nil {
		return nil, s.timeout()
	}
	return &TokensResponse{Tokens: n, Tokenizer: tok.Name(), Bytes: len(r.Text)}, nil
}
