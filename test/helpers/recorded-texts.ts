// The texts the fixtures recorded (tool outputs, prompts, commands), for tests that hold a shortcut to the long way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every string of 20 characters or more in the recorded payloads, judgment sequences and transcripts. */
export function recordedTexts(): string[] {
  const out: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') {
      if (v.length >= 20) out.push(v);
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(name))
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          try {
            collect(JSON.parse(line));
          } catch {
            // a JSON file spread over lines: read whole below
          }
        }
      if (name.endsWith('.json'))
        try {
          collect(JSON.parse(readFileSync(p, 'utf8')));
        } catch {
          // not JSON
        }
    }
  };
  for (const d of ['payloads', 'judgment', 'transcripts']) walk(join(import.meta.dirname, '..', 'fixtures', d));
  return out;
}
