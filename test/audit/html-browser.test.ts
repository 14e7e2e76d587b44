// The HTML report in a real browser: Debian's Chromium (/usr/bin/chromium, installed by .ci/run) driven by
// playwright-core, offline. The page from the real transcripts renders with no console error and no request, shows
// the headline numbers the terminal report prints, and one timeline per loop; a screenshot is kept under .cache/.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireCli, runCli } from '../helpers/cli.ts';
import { repoRoot } from '../helpers/guard.ts';
import { fixtureHome, homeEnv } from './fixtures.ts';

const CHROMIUM = '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const mustRun = process.env.CI === 'true' || process.env.CI === '1';
const artifacts = join(repoRoot, '.cache', 'audit-browser');
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let home: string;
let work: string;
beforeAll(() => {
  requireCli();
  home = fixtureHome();
  work = mkdtempSync(join(tmpdir(), 'lg-audit-html-'));
  mkdirSync(artifacts, { recursive: true });
});
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

/** The page, its own text report beside it for the numbers to expect. */
function render(args: string[], name: string): { file: string; text: string; loops: number } {
  const file = join(work, name);
  const r = runCli(['audit', '--all', ...args, '--html', file], { cwd: work, env: homeEnv(home) });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain(`HTML report: ${file}`);
  const json = JSON.parse(runCli(['audit', '--all', ...args, '--json'], { cwd: work, env: homeEnv(home) }).stdout);
  return { file, text: r.stdout, loops: json.loops.length };
}

/** What the terminal report's headline says for one label ("Money in loops  $0.00052 + …, an estimate…"). */
function headlineValue(text: string, label: string): string {
  const line = text.split('\n').find((l) => l.startsWith(`  ${label}`)) ?? '';
  return line.slice(2 + label.length).trim();
}

async function inChromium(file: string, shot: string) {
  const profile = mkdtempSync(join(tmpdir(), 'lg-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    offline: true,
    viewport: { width: 1100, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    context.on('request', (req) => requests.push(req.url()));
    const url = pathToFileURL(file).href;
    await page.goto(url, { waitUntil: 'load' });
    const card = async (k: string) => (await page.locator(`[data-k="${k}"] b`).textContent())?.trim();
    const result = {
      errors,
      requests: requests.filter((u) => u !== url),
      loops: await card('loops'),
      time: await card('time'),
      money: await card('money'),
      moneyNote: (await page.locator('[data-k="money"] small').textContent())?.trim(),
      saved: await card('saved'),
      timelines: await page.locator('svg.timeline').count(),
      pathsPerTimeline: await page
        .locator('svg.timeline')
        .evaluateAll((svgs) => svgs.map((s) => s.querySelectorAll('path').length)),
      visibleTimelines: await page.locator('svg.timeline').first().isVisible(),
    };
    await page.screenshot({ path: join(artifacts, shot), fullPage: true });
    return result;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

describe.skipIf(!present && !mustRun)(
  `audit --html in headless Chromium${present ? '' : ` (skipped: ${CHROMIUM} is not installed; apt-get install chromium, or run under CI=true)`}`,
  () => {
    it('the page of the real transcripts: no console error, no request, the headline as printed, one timeline per loop', async () => {
      expect(existsSync(CHROMIUM), `${CHROMIUM} is required under CI`).toBe(true);
      const { file, text, loops } = render([], 'audit.html');
      const seen = await inChromium(file, 'audit.png');
      expect(seen.errors).toEqual([]);
      expect(seen.requests).toEqual([]);
      expect(seen.loops).toBe('6');
      expect(loops).toBe(6);
      expect(seen.time).toBe(headlineValue(text, 'Time in loops'));
      // The dollars lead both; the terminal says what they leave out on the same line, the page under them.
      expect(seen.money).toMatch(/^\$0\.\d+$/);
      expect(headlineValue(text, 'Money in loops').startsWith(`${seen.money} + 21 requests of an unknown model`)).toBe(
        true,
      );
      expect(seen.moneyNote).toContain('+ 21 requests of models with no price');
      expect(seen.saved).toMatch(/^\$0\.\d+$/);
      expect(headlineValue(text, 'Guard saves').startsWith(`${seen.saved}, 4 model requests`)).toBe(true);
      expect(seen.timelines).toBe(6);
      // Each loop's calls are one shape, not one element per call.
      expect(seen.pathsPerTimeline).toEqual([1, 1, 1, 1, 1, 1]);
      expect(seen.visibleTimelines).toBe(true);
      expect(existsSync(join(artifacts, 'audit.png'))).toBe(true);
    }, 60_000);

    it('--redact: the same page with no path, argument or output of the sessions', async () => {
      const { file } = render(['--redact'], 'audit-redacted.html');
      const seen = await inChromium(file, 'audit-redacted.png');
      expect(seen.errors).toEqual([]);
      expect(seen.requests).toEqual([]);
      expect(seen.timelines).toBe(6);
      const { readFileSync } = await import('node:fs');
      const html = readFileSync(file, 'utf8');
      expect(html).not.toContain('/home/dev');
      expect(html).not.toContain('definitely-missing-dir');
      expect(html).toContain('&lt;project-1&gt;');
    }, 60_000);
  },
);
