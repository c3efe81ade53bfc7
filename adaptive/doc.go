// Package adaptive implements query-adaptive format selection, the
// "Adaptive Format Selection" experiment of the serialization study
// (../shared/spec/001_2264b1b960dd163f.txt, §3, Table 3 and Tables 14–16):
// for each question a language model scores a small slate of candidate
// serializations of the graph and the best-scored rendering is handed to a
// single answer call.
//
// The pieces, in the order a run uses them:
//
//   - Splits: disjoint, independently seeded calibration and test splits of
//     GraphQA-Hardened (DefaultSplits; 105 questions each).
//   - Calibration: per-task × per-format accuracy priors from answers on the
//     calibration split (Calibrate, FromObservations, FromEvalRun) and a
//     cross-task ranking with documented tie-breaks (Calibration.Ranking).
//   - Slate: per question, the two best compact formats of the cross-task
//     ranking ("safe succinct anchors"), the best semantically rich one and
//     two task-specific guests from the per-task ranking (BuildSlate; the
//     compact/rich classification is the table of ClassOf).
//   - Selector: one fixed-prompt scoring call per candidate, issued in
//     parallel (SelectorSystemPrompt, SelectorUserPrompt), whose reply must be
//     the four-step chain TASK_NEEDS / RENDERING / PRIOR_DELTA / SCORE
//     (ParseChain, strict); the highest score wins, with a diversification
//     band that round-robins among candidates within b points of the top
//     (Band, explicit per-run state).
//   - Policies: global fixed-best, the task-wise router, the selector, MV-5
//     majority voting over the slate and the post-hoc oracle over the slate
//     (Run), with per-policy accounting of calls, tokens, cost and latency,
//     parallel calls counting as the slowest of their group (Summarize).
//
// Every model call goes through package llm and is appended to a JSONL log
// (LogFile) before it is used; a run that is started again over the same
// folder reuses the calls already answered in its log.
package adaptive
