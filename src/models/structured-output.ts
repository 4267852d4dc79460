// One JSON schema (GenerationSettings.responseSchema), three providers' ways of enforcing it:
// OpenAI's strict json_schema (every property required, no others allowed), Anthropic's forced
// tool call (the schema is the tool's input_schema) and Gemini's responseSchema (an OpenAPI
// subset with upper-case type names).

type Json = Record<string, unknown>;

/** The schema in the form OpenAI's strict mode accepts: objects closed and every property required. */
export function strictJsonSchema(schema: Json): Json {
  const out: Json = { ...schema };
  if (schema.type === 'object' && schema.properties && typeof schema.properties === 'object') {
    const props = schema.properties as Record<string, Json>;
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, strictJsonSchema(v)]));
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') out.items = strictJsonSchema(schema.items as Json);
  return out;
}

const GEMINI_TYPES: Record<string, string> = {
  object: 'OBJECT',
  array: 'ARRAY',
  string: 'STRING',
  integer: 'INTEGER',
  number: 'NUMBER',
  boolean: 'BOOLEAN',
};

/** The schema as Gemini's responseSchema: upper-case types, properties in their given order. */
export function geminiResponseSchema(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'type' && typeof v === 'string') out.type = GEMINI_TYPES[v] ?? v.toUpperCase();
    else if (k === 'properties' && v && typeof v === 'object') {
      const props = v as Record<string, Json>;
      out.properties = Object.fromEntries(Object.entries(props).map(([p, s]) => [p, geminiResponseSchema(s)]));
      out.propertyOrdering = Object.keys(props);
    } else if (k === 'items' && v && typeof v === 'object') out.items = geminiResponseSchema(v as Json);
    else if (k !== 'additionalProperties' && k !== '$schema') out[k] = v;
  }
  return out;
}
