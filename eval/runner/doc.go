// Package runner runs a prepared evaluation (an eval.Plan). Run writes the
// plan's frozen inputs to the run folder (contexts/, questions.jsonl,
// manifest.json; Freeze), refuses to continue a run whose inputs differ,
// and sends the calls through package llm, appending one Record per call to
// answers.jsonl. A run that was cancelled or had failed calls is resumed by
// running it again: calls already answered are skipped, failed ones are
// retried, and the log is only ever appended to. ReadRecords reads a log
// back, Summarize reports accuracy and tokens per arm and model, and
// PlainProgress and TerminalProgress show a run's progress.
package runner
