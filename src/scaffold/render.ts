// Text we own comes from templates/ through handlebars — strict (a missing value is an error) and unescaped
// (not HTML). Every value is known when the package is built, so `npm run build` renders them into dist/templates/
// and the CLI reads plain text: compiling the templates on each run cost more than the rest of --check.
import Handlebars from 'handlebars';
import { AGENT_ENV, DEFAULT_BLOCK, DEFAULT_HANDOFF } from '../tools/env.ts';

/** The templates and the file each renders to under dist/templates/. */
export const TEMPLATES = {
  'agents-block.md.hbs': 'agents-block.md',
  'cursor-env.sh.hbs': 'cursor-env.sh',
  'agents-gitignore.hbs': 'agents-gitignore',
  'profile-block.sh.hbs': 'profile-block.sh',
  'profile.fish.hbs': 'profile.fish',
  'cline-loader.js.hbs': 'cline-loader.js',
  'gitattributes-block.hbs': 'gitattributes-block',
} as const;

export type TemplateName = keyof typeof TEMPLATES;

export function templateData(version: string): Record<string, unknown> {
  return { version, env: { ...AGENT_ENV }, block: DEFAULT_BLOCK, handoff: DEFAULT_HANDOFF };
}

export function renderTemplate(source: string, data: Record<string, unknown>): string {
  return Handlebars.compile(source, { noEscape: true, strict: true })(data);
}
