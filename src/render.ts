// Text we own comes from templates/ through handlebars: strict (a missing value is an error) and unescaped (not HTML).
import Handlebars from 'handlebars';
import { readTemplate } from './assets.ts';

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function render(template: string, data: Record<string, unknown>): string {
  let fn = cache.get(template);
  if (!fn) {
    fn = Handlebars.compile(readTemplate(template), { noEscape: true, strict: true });
    cache.set(template, fn);
  }
  return fn(data);
}
