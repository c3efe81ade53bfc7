/**
 * isolda: RDF and JSON-LD graphs as token-lean text for language models
 * (the ISOLDA notation), by the isolda Go core compiled to WebAssembly.
 * Every function gives the same bytes as the isolda CLI command of the
 * same name. A bad input rejects the promise with an {@link IsoldaError}.
 */

/** An input: text, or its UTF-8 bytes. */
export type Input = string | Uint8Array;

/** The reader options of every call that reads RDF (the CLI's input flags). */
export interface InputOptions {
  /**
   * Syntax of the input, as the CLI's -f: nt, nq, ttl, trig, rdfxml,
   * jsonld or html, or a lossless format of the lab registry (isolda,
   * b-ttl-ids, ...). Default: sniffed from the content.
   */
  format?: string;
  /** Same as format (the CLI's --from). */
  from?: string;
  /** Base IRI for relative IRIs. */
  base?: string;
  /** Treat warnings such as invalid IRIs as errors (--strict). */
  strict?: boolean;
  /** Name of the input in error messages (default <input>). */
  file?: string;
}

/**
 * The options of encode: the CLI's encode flags. Names are accepted in
 * camelCase, kebab-case or snake_case (noTypes, no-types, no_types).
 */
export interface EncodeOptions extends InputOptions {
  /** Notation version: 0.4 (default), 0.2, 0.1 or 0.3. */
  spec?: '0.1' | '0.2' | '0.3' | '0.4' | string;
  /** Most tokens of the document (0: no budget); the document is cut at a record boundary and still decodes. */
  budget?: number;
  /** Tokenizer of the budget: o200k_base (default) or cl100k_base. */
  tokenizer?: string;
  /** Entity ids: label (default) or slug. */
  ids?: 'label' | 'slug' | string;
  /** Glossary: full (default), legend or none. */
  glossary?: 'full' | 'legend' | 'none' | string;
  /** Layout: table (default), blocks or hybrid. */
  layout?: 'table' | 'blocks' | 'hybrid' | string;
  /** Hybrid layout's regularity threshold. */
  theta?: number;
  noConstants?: boolean;
  noTypes?: boolean;
  inverseIndex?: boolean;
  continuation?: boolean;
  inlineBnodes?: boolean;
  /** Entity (id or IRI) to put first. */
  anchor?: string;
  /** With anchor: keep only the entities at most this many links away. */
  hops?: number;
  noPreferredLanguage?: boolean;
  noRowLabelIds?: boolean;
  noTermAliases?: boolean;
  noVocabPrefix?: boolean;
  iriIds?: boolean;
  datatypePrefixes?: boolean;
  [option: string]: string | number | boolean | undefined;
}

/** The options of decode. */
export interface DecodeOptions {
  /** Output format: nquads (default), ntriples, turtle, trig, jsonld, jsonld-compact, rdfxml, or a lab format. */
  to?: string;
  /** Name of the document in error messages. */
  file?: string;
}

/** The options of convert. */
export interface ConvertOptions extends InputOptions {
  /** Output format: an RDF syntax or a format of the lab registry (required). */
  to: string;
}

/** The error of a rejected call; line and column are set when the input was at fault. */
export interface IsoldaError extends Error {
  file?: string;
  line?: number;
  column?: number;
}

/** Writes an RDF graph (any RDF syntax) as an ISOLDA document, as `isolda encode`. */
export function encode(text: Input, options?: EncodeOptions): Promise<string>;

/** Rebuilds the dataset of an ISOLDA document, as `isolda decode` (canonical N-Quads by default). */
export function decode(text: Input, options?: DecodeOptions): Promise<string>;

/** Counts the tokens of a text, as `isolda tokens` (o200k_base by default; cl100k_base too). */
export function countTokens(text: Input, tokenizer?: string): Promise<number>;

/** Converts RDF between syntaxes, or to any format of the lab registry, as `isolda convert`. */
export function convert(text: Input, options: ConvertOptions): Promise<string>;

/** Loads the WebAssembly core now instead of on the first call. */
export function init(): Promise<void>;
