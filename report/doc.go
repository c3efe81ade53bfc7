// Package report turns evaluation observations into the tables, charts and
// pre-registered criteria of an isolda evaluation report: accuracies with
// Wilson intervals per arm, model, task family and graph; paired McNemar
// comparisons with bootstrap and BCa intervals; token summaries; run-to-run
// spread; Pareto fronts of accuracy against input tokens; Markdown, CSV and
// JSON tables; hand-written SVG charts and a self-contained HTML page.
//
// Every output is deterministic: groups are sorted by explicit keys and the
// bootstraps are seeded.
//
// The paper's criteria (ISOLDA paper §4.4–4.7: 1–4, R, K1–K3, W1–W4, V,
// C1–C5) ship as criteria files in the examples directory.
//
// # Criteria language
//
// A criteria file (YAML or JSON, the same fields)
// declares, before a run, what the run must show:
//
//	name: confirmatory run
//	alpha: 0.05                  # default significance level
//	criteria:
//	  - id: "2"
//	    kind: token_reduction    # mean input tokens of arm ≥ at_least below each `than` arm
//	    arm: I
//	    than: [B-ttl-ids]
//	    at_least: 0.15
//	    graphs: [dcat]
//	  - id: "3"
//	    kind: not_worse          # never significantly worse (McNemar) than the best of `than`
//	    arm: I
//	    than: [B-json, B-ttl, B-ttl-ids]
//	    best: true
//
// Kinds:
//
//   - lossless: every round trip of arm (RoundTrip records: those an eval
//     run's manifest records, RoundTripsFromManifest, or an isolda bench
//     result's) is isomorphic, and there is at least one.
//   - token_reduction: for each group and each arm B in than,
//     1 − mean(arm)/mean(B) of input tokens is > 0 and ≥ at_least.
//   - not_worse: for each group, arm is not significantly less accurate
//     than B (p < alpha with acc(arm) < acc(B)).
//   - better: for each group, arm is significantly more accurate than B
//     (p < alpha with acc(arm) > acc(B)).
//   - accuracy_within: for each model and arm of expected,
//     |accuracy − expected| ≤ tolerance; NOT EVALUATED when an expected
//     arm did not run and no other check failed.
//   - drop_not_larger: for each model and each drop {from, to} of drops
//     (two graphs asking the same questions, paired by Observation.Pair,
//     e.g. a benchmark in English and in Catalan), arm's drop in accuracy
//     from `from` to `to` is not significantly larger than that of B (the
//     arm of than most accurate on both graphs, with best: true): exact
//     sign test of the per-question differences of the drops, as criterion
//     C5 of the ISOLDA paper (§4.7).
//   - all_of, any_of: combine the sub-criteria in criteria.
//   - manual: cannot be evaluated from observations; always NOT EVALUATED,
//     listed so that the report shows it.
//
// For not_worse and better, B is than[0], or, with best: true, the arm of
// than with the highest accuracy for the group's model (over every family,
// within the graphs filter and the group's graph; ties go to the earlier arm
// in than). Tests are paired by (graph, question, trial) and use the exact
// McNemar test, or the mid-p test with test: midp.
//
// Metrics: not_worse, better and accuracy_within compare accuracy, or with
// metric: the partial credit of the answers that have it (f1, precision,
// recall, exact_match, parse_success, owners_f1; see Observation.Value).
// Binary metrics are tested with McNemar as above; real-valued ones with
// the seeded paired bootstrap of the mean difference, significant when its
// 1 − alpha BCa interval (the percentile interval when BCa is degenerate)
// excludes 0.
//
// Groups: per: model (default) gives one check per model; model_graph one
// per model and graph; model_family one per model and family. Models, graphs
// and families restrict the observations (empty means all); a name in
// families matches a question's family or its task (a sub-family such as
// outgoing_aggregation_deg_gt4, or a KG-LLM-Bench task), and the group is
// named after what matched. A group where
// arm or every B did not run is left out and noted. Quantifier for: every
// (default) needs every check to pass, any needs one, and min_count: N
// needs N.
package report
