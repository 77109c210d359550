/**
 * One structured request to the LLM provider, as data: every text the provider receives (the
 * system text, the prompt, and every string of the answer's JSON schema: enum values, constants,
 * descriptions, titles, defaults, examples), how its reply is mapped back, and how it is checked.
 * `structuredRequest` is the one place a request is built (from the caller's zod schema);
 * `LlmClient` (llm-model.ts) sends it as it is; the redacting adapter (llm-redacting.ts) rewrites
 * every text of it first and maps the reply back (a redacted option to the option).
 *
 * With the providers the service speaks, the schema travels as `response_format.json_schema`
 * (OpenAI, OpenAI-compatible), as an output format or a tool's input schema (Anthropic, whose
 * tool-call arguments are the reply): rewriting the schema covers each of them.
 */
import { jsonSchema, zodSchema, type JSONSchema7, type Schema } from 'ai';
import type { z } from 'zod';

/** A JSON value: what a JSON schema and a provider's reply are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface LlmRequest<T> {
  /** The schema's name (one of ours: `simulation`, `typed_answer`…). */
  readonly name: string;
  readonly system: string;
  readonly prompt: string;
  /** The answer's JSON schema as the provider receives it. */
  readonly schema: Json;
  /** The reply (or a partial of it, while streamed) as the caller reads it: strings the schema rewrote mapped back. */
  readonly restore: (reply: unknown) => unknown;
  /** The caller's check of a restored reply (its zod schema). */
  readonly check: z.ZodType<T>;
}

/** The request for an answer validated by `schema`: its JSON schema as the AI SDK would send it. */
export async function structuredRequest<T>(schema: z.ZodType<T>, system: string, prompt: string, name: string): Promise<LlmRequest<T>> {
  const json = (await zodSchema(schema).jsonSchema) as Json;
  return { name, system, prompt, schema: json, restore: (reply) => reply, check: schema };
}

/** The request's schema for the AI SDK: sent as `request.schema`, the reply restored, then checked by the caller's zod schema. */
export function sdkSchema<T>(request: LlmRequest<T>): Schema<T> {
  return jsonSchema<T>(request.schema as JSONSchema7, {
    validate: async (reply) => {
      const r = await request.check.safeParseAsync(request.restore(reply));
      return r.success ? { success: true, value: r.data } : { success: false, error: r.error };
    },
  });
}

/** Keys of a JSON schema whose string values say something in words (the rest is structure: types, formats, names). */
const WORDED = new Set(['description', 'title', 'default', 'examples', 'const', 'enum', '$comment']);
/** Keys whose value is a schema, or a list or a map of schemas. */
const SCHEMA = new Set(['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems']);
const SCHEMAS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every string inside a worded value (a description, an enum's values, an example object's strings). */
function wordedStrings(v: Json, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) wordedStrings(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) wordedStrings(x, out);
}

/** Calls `visit` on each schema node of `schema`, depth first. */
export function eachSchemaNode(schema: Json, visit: (node: { [key: string]: Json }) => void): void {
  if (!isObject(schema)) return;
  visit(schema);
  for (const [key, v] of Object.entries(schema)) {
    if (SCHEMA.has(key)) eachSchemaNode(v, visit);
    else if (SCHEMAS.has(key) && Array.isArray(v)) for (const s of v) eachSchemaNode(s, visit);
    else if (SCHEMA_MAPS.has(key) && isObject(v)) for (const s of Object.values(v)) eachSchemaNode(s, visit);
  }
}

/** Every worded string of a schema, in a fixed order (the order `rewriteSchema` asks for them). */
export function schemaTexts(schema: Json): string[] {
  const out: string[] = [];
  eachSchemaNode(schema, (node) => {
    for (const [key, v] of Object.entries(node)) if (WORDED.has(key)) wordedStrings(v, out);
  });
  return out;
}

/**
 * The schema with each worded string replaced by `next()` (called in `schemaTexts` order), and,
 * for every node whose allowed values (`enum`, a string `const`) changed, the map from each new
 * value back to the old one. An enum's values stay distinct: one that would equal another gets
 * " (2)", " (3)"… appended.
 */
export function rewriteSchema(schema: Json, next: () => string): { schema: Json; enums: Map<object, Map<string, string>> } {
  const copy = structuredClone(schema);
  const enums = new Map<object, Map<string, string>>();
  const rewrite = (v: Json): Json => (typeof v === 'string' ? next() : Array.isArray(v) ? v.map(rewrite) : isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewrite(x)])) : v);
  eachSchemaNode(copy, (node) => {
    const back = new Map<string, string>();
    const taken = new Set<string>();
    /** An allowed value, rewritten and kept distinct, with the way back. */
    const allowed = (old: string): string => {
      let value = next();
      for (let n = 2; taken.has(value); n++) value = `${value.replace(/ \(\d+\)$/, '')} (${n})`;
      taken.add(value);
      if (value !== old) back.set(value, old);
      return value;
    };
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (!WORDED.has(key) || v === undefined) continue;
      if (key === 'enum' && Array.isArray(v)) node[key] = v.map((old) => (typeof old === 'string' ? allowed(old) : rewrite(old)));
      else if (key === 'const' && typeof v === 'string') node[key] = allowed(v);
      else node[key] = rewrite(v);
    }
    if (back.size > 0) enums.set(node, back);
  });
  return { schema: copy, enums };
}

/** `reply` with every string that a rewritten enum of `schema` holds mapped back to its old value, following the schema. */
export function restoreEnums(schema: Json, enums: ReadonlyMap<object, ReadonlyMap<string, string>>, reply: unknown): unknown {
  if (enums.size === 0 || !isObject(schema)) return reply;
  const back = enums.get(schema);
  if (typeof reply === 'string') {
    if (back?.has(reply)) return back.get(reply);
    for (const key of ['anyOf', 'oneOf', 'allOf']) {
      const branches = schema[key];
      if (Array.isArray(branches)) for (const b of branches) if (isObject(b) && enums.get(b)?.has(reply)) return enums.get(b)?.get(reply);
    }
    return reply;
  }
  let out = reply;
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) out = restoreEnums(b, enums, out);
  }
  if (Array.isArray(out) && schema.items !== undefined) return out.map((x) => restoreEnums(schema.items ?? null, enums, x));
  const properties = schema.properties;
  if (typeof out === 'object' && out !== null && !Array.isArray(out) && isObject(properties)) {
    return Object.fromEntries(Object.entries(out).map(([k, x]) => [k, k in properties ? restoreEnums(properties[k] ?? null, enums, x) : x]));
  }
  return out;
}
