// A schema that says what a TypeScript type of the code says (docs/openapi.md): `describing<PostSummary>()(schema)`
// compiles only when the schema's output is that type exactly, so that a field added to or removed from an answer
// cannot leave the document behind without the type check saying so.
import type { output, ZodType } from 'zod';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export function describing<T>() {
  return <S extends ZodType>(schema: S, ...mismatch: Same<output<S>, T> extends true ? [] : [schemaDiffersFromType: never]): S => {
    void mismatch;
    return schema;
  };
}
