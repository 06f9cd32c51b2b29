/**
 * Formats generated TypeScript with prettier's standalone build (its defaults: what a repository without a prettier
 * configuration gets, so `prettier --check` passes on the output as written). Loaded on first use only.
 */

import type * as Prettier from 'prettier';

/** Formats TypeScript source text. */
export async function formatTypeScript(text: string): Promise<string> {
  const prettier: typeof Prettier = require('prettier/standalone');
  const plugins = [require('prettier/plugins/typescript'), require('prettier/plugins/estree')];
  return prettier.format(text, { parser: 'typescript', plugins });
}
