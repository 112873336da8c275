import { lazy } from '../lazy';
import type { ToolDefinition } from './types';

/** A tool's definition as written: its `input` is the function that builds the schema. */
export type ToolDeclaration<I extends object> = Omit<ToolDefinition<I>, 'input'> & {
  /** Builds the input schema (called once, when `input` is first read). */
  input: () => ToolDefinition<I>['input'];
};

/**
 * A definition whose input schema is built when first read, then kept: a turn that only talks
 * lists the tools without building their schemas. `input` becomes a getter in its own place
 * (same keys, same order); the registry checks a getter's schema when it first reads it.
 */
export function defineTool<I extends object>(declaration: ToolDeclaration<I>): ToolDefinition<I> {
  const definition: object = declaration;
  return Object.defineProperty(definition, 'input', {
    get: lazy(declaration.input),
    enumerable: true,
    configurable: true,
  }) as ToolDefinition<I>;
}
