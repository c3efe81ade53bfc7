package llm

// Statuses of a CallRecord.
const (
	StatusOK     = "ok"
	StatusFailed = "failed"
)

// CallRecord is one chat call as the call logs record it (eval's answer
// log and select's call log, one JSON line a call): its outcome, the bodies
// of its last attempt, the answer and the token usage. Each log's line type
// embeds it between the fields that identify the call and those that score
// its answer, so that both logs spell these fields alike.
type CallRecord struct {
	// Status is StatusOK or StatusFailed (then Error says why).
	Status     string `json:"status"`
	Error      string `json:"error,omitempty"`
	HTTPStatus int    `json:"http_status"`
	Attempts   int    `json:"attempts"`
	// LatencyMS is the duration of the last attempt.
	LatencyMS float64 `json:"latency_ms"`
	// RawRequest and RawResponse are the bodies of the last attempt.
	RawRequest  string `json:"raw_request"`
	RawResponse string `json:"raw_response"`
	Response    string `json:"response"`
	Reasoning   string `json:"reasoning,omitempty"`
	Finish      string `json:"finish_reason,omitempty"`
	// Server-reported usage.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	ReasoningTokens  int64 `json:"reasoning_tokens"`
	CachedTokens     int64 `json:"cached_tokens"`
	// Locally counted tokens (-1 without a tokenizer): the message contents
	// (no chat template) and the response text.
	LocalPromptTokens     int `json:"local_prompt_tokens"`
	LocalCompletionTokens int `json:"local_completion_tokens"`
	// ResponseCut is set when Response, Reasoning or RawResponse were cut
	// to the client's answer cap (llm.Client.MaxAnswerBytes); ResponseBytes,
	// ReasoningBytes and RawResponseBytes are then their sizes as received,
	// and the local completion tokens count the kept text.
	ResponseCut      bool `json:"response_cut,omitempty"`
	ResponseBytes    int  `json:"response_bytes,omitempty"`
	ReasoningBytes   int  `json:"reasoning_bytes,omitempty"`
	RawResponseBytes int  `json:"raw_response_bytes,omitempty"`
}

// NewCallRecord returns the record of a call of msgs that gave resp and err.
// count, when not nil, counts the local tokens of a successful call.
func NewCallRecord(msgs []Message, resp Response, err error, count func(string) int) CallRecord {
	r := CallRecord{HTTPStatus: resp.StatusCode, Attempts: resp.Attempts,
		LatencyMS:  float64(resp.Latency.Microseconds()) / 1000,
		RawRequest: string(resp.RawRequest), RawResponse: string(resp.RawResponse),
		LocalPromptTokens: -1, LocalCompletionTokens: -1}
	if err != nil {
		r.Status, r.Error = StatusFailed, err.Error()
		return r
	}
	r.Status = StatusOK
	if resp.Cut {
		r.ResponseCut = true
		r.ResponseBytes, r.ReasoningBytes, r.RawResponseBytes = resp.AnswerBytes, resp.ReasoningBytes, resp.RawResponseBytes
	}
	r.Response, r.Reasoning, r.Finish = resp.Text, resp.ReasoningText, resp.FinishReason
	r.PromptTokens, r.CompletionTokens = resp.Usage.Prompt, resp.Usage.Completion
	r.ReasoningTokens, r.CachedTokens = resp.Usage.Reasoning, resp.Usage.Cached
	if count != nil {
		n := 0
		for _, m := range msgs {
			n += count(m.Content)
		}
		r.LocalPromptTokens, r.LocalCompletionTokens = n, count(resp.Text)
	}
	return r
}
