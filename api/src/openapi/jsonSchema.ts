import { z } from "zod";

export type SchemaObject = Record<string, unknown>;

/**
 * A zod schema as an OpenAPI 3.0 schema, by zod's own converter. Requests are described by what they accept
 * (io "input": a preprocess or a pipe shows its target, a transform of unknown shows as any value), answers by
 * what they give. zod-to-openapi 9.1 cannot do this: it throws on z.catch, which every list query in domain/ uses.
 */
export function toOpenApiSchema(schema: z.ZodType, io: "input" | "output"): SchemaObject {
  const json = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
    reused: "inline",
    cycles: "throw",
    override: ({ jsonSchema }) => {
      // A field the server converts itself (USD amounts, percent, months) has no JSON type of its own.
      if (io === "input" && Object.keys(jsonSchema).length === 0) jsonSchema.description = ANY_VALUE;
    },
  }) as SchemaObject;
  delete json.$schema;
  return json;
}

const ANY_VALUE = "Any JSON value: the server converts and checks it itself (USD amounts, percent and months take a number or a decimal string; see the example).";

/** A query object's fields as OpenAPI parameters; one is required only if the schema refuses it missing (a default or a catch fills it). */
export function queryParameters(schema: z.ZodType): SchemaObject[] {
  if (!(schema instanceof z.ZodObject)) throw new Error("a query schema must be a z.object");
  const json = toOpenApiSchema(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, SchemaObject>;
  return Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const { description, ...rest } = properties[name] ?? {};
    return { name, in: "query", required: !field.safeParse(undefined).success, ...(description ? { description } : {}), schema: rest };
  });
}
