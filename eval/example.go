package eval

// ExampleYAML is the commented example experiment `isolda eval init` writes.
const ExampleYAML = `# isolda eval experiment (see ` + "`isolda eval validate`" + `).
name: demo
# RDF graphs, paths relative to this file.
graphs:
  - name: demo
    file: demo.ttl
# Arms: formats of the registry (` + "`isolda formats`" + `); isolda formats take options.
arms:
  - name: isolda
    format: isolda-0.3
  - name: turtle-anon
    format: b-ttl
    hide_name: true        # the prompt does not name the format
  - name: isolda-blocks
    format: isolda
    options: {layout: blocks, glossary: legend}
  # Ordering and budget (per arm, or for every arm at the top level):
  #   ordering: {kind: canonical}          the format's own order (default)
  #   ordering: {kind: shuffle, seed: 7}   records permuted with a recorded seed
  #   ordering: {kind: bfs}                breadth-first from each question's
  #                                        anchor entity (one context per anchor)
  # Orderings other than canonical need a format with movable records:
  # isolda, isolda-0.1, isolda-0.2, isolda-0.3, ntriples, nquads.
  #   budget: {tokens: 2048}               cut to 2048 tokens of each model's tokenizer
  #   budget: {tokens: 2048, tokenizer: o200k_base, policy: raw}
  # policy record (default) keeps whole records (statements, ISOLDA rows) so
  # the cut still parses; raw keeps the longest prefix. tokens: 0 = no budget.
  - name: nt-shuffled-400
    format: ntriples
    ordering: {kind: shuffle, seed: 7}
    budget: {tokens: 400, tokenizer: o200k_base}
  # - name: isolda-bfs
  #   format: isolda
  #   ordering: {kind: bfs}
# Models of OpenAI-compatible endpoints (vLLM, llama.cpp, Ollama, OpenAI).
models:
  - name: qwen3-8b
    base_url: http://localhost:8000/v1
    model: Qwen/Qwen3-8B
    api_key_env: OPENAI_API_KEY   # read from the environment, never stored
    tokenizer: o200k_base          # counts tokens locally too
    extra_body:
      chat_template_kwargs: {enable_thinking: false}
    max_concurrency: 8
    price_in: 0.05                 # per million input tokens (summaries only)
    price_out: 0.20
# Question sets: generated from every graph, or a frozen set file
# (written by ` + "`isolda questions FILE -o questions.jsonl`" + `), asked about a
# graph or its own contexts.
tasks:
  - name: kg
    generate: {families: [lookup, count, multi_hop], per_family: 5, seed: 1}
  # - name: mine
  #   set: questions.jsonl
  #   graph: demo
layout: system_user    # or user: data and question in one user message
temperature: 0
max_tokens: 256
seed: 1
trials: 1
retries: 3
timeout_seconds: 120
# budget: {tokens: 4096}       # default budget of every arm without one
# ordering: {kind: canonical}  # default ordering of every arm without one
`
